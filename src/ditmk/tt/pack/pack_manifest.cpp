#include "ditmk/tt/pack/pack_manifest.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ditmk/tt/pack/op_matrix.hpp"
#include "ditmk/tt/pack/pack_files.hpp"

namespace ditmk::tt {

using nlohmann::json;

namespace {

json zero_fill(const std::string& file, uint64_t offset, uint64_t length) {
  return {{"file", file}, {"offset", offset}, {"length", length}, {"fill", "zero"}};
}

json slice_sources(const ArenaLayout& layout, const ArenaOp& op, const CoreSlice& s, int embodiment) {
  json sources = json::array();
  const int k0 = s.k_tile0 * kTile, k1 = (s.k_tile0 + s.k_tiles) * kTile;
  const int n0 = s.n_tile0 * kTile, n1 = (s.n_tile0 + s.n_tiles) * kTile;
  for (const WeightSource& src : op.sources) {
    const auto part = source_part(src, k0, k1, n0, n1, layout.head_dim, layout.head_dim_pad);
    if (!part) continue;
    json j = {{"tensor", src.tensor},
              {"rows", {part->rows.begin, part->rows.end}},
              {"cols", {part->cols.begin, part->cols.end}},
              {"layout", src.out_in ? "[out, in], transposed into [K, N]" : "[in, out]"}};
    if (src.per_embodiment) j["embodiment"] = embodiment;
    if (src.scale != 1.0) j["scale"] = src.scale;
    if (src.pad_heads_k || src.pad_heads_n) j["heads_padded"] = src.pad_heads_k ? "K" : "N";
    sources.push_back(std::move(j));
  }
  return sources;
}

// Sorted (offset, entry) pairs of one file with zero fill added between and after them.
json fill_gaps(std::vector<std::pair<uint64_t, json>> entries, const std::string& file, uint64_t begin,
               uint64_t end) {
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  json out = json::array();
  uint64_t at = begin;
  for (auto& [offset, entry] : entries) {
    if (offset > at) out.push_back(zero_fill(file, at, offset - at));
    at = offset + entry["length"].get<uint64_t>();
    out.push_back(std::move(entry));
  }
  if (end > at) out.push_back(zero_fill(file, at, end - at));
  return out;
}

json table_json(const HostTable& t, const std::string& file) {
  return {{"file", file}, {"shape", {t.rows, t.cols}}, {"dtype", "bf16"}, {"layout", "ROW_MAJOR"},
          {"bytes", uint64_t(t.rows) * t.cols * 2}};
}

}  // namespace

json arena_ranges(const ArenaLayout& layout, Arena arena, int embodiment) {
  const std::string file = pack_files::arena_file(arena);
  const uint64_t bank_bytes = layout.arena_bank_bytes[int(arena)];
  json out = json::array();
  for (int bank = 0; bank < kDramBanks; ++bank) {
    std::vector<std::pair<uint64_t, json>> entries;
    for (std::size_t i = 0; i < layout.ops.size(); ++i) {
      const ArenaOp& op = layout.ops[i];
      if (op.arena != arena) continue;
      for (const CoreSlice& s : op.slices) {
        if (s.bank != bank) continue;
        const uint64_t offset = pack_files::file_offset(bank_bytes, bank, s.offset);
        entries.emplace_back(offset, json{{"file", file},
                                          {"offset", offset},
                                          {"length", s.bytes},
                                          {"bank", bank},
                                          {"op", op.name},
                                          {"op_index", i},
                                          {"core", s.compute_idx},
                                          {"k_tiles", {s.k_tile0, s.k_tile0 + s.k_tiles}},
                                          {"n_tiles", {s.n_tile0, s.n_tile0 + s.n_tiles}},
                                          {"format", tile_format_name(op.format)},
                                          {"sources", slice_sources(layout, op, s, embodiment)}});
      }
    }
    for (json& e : fill_gaps(std::move(entries), file, uint64_t(bank) * bank_bytes, uint64_t(bank + 1) * bank_bytes))
      out.push_back(std::move(e));
  }
  return out;
}

json table_ranges(const HostTable& t, const std::string& file) {
  std::vector<std::pair<uint64_t, json>> entries;
  for (const TableRun& run : t.runs) {
    const uint64_t offset = (uint64_t(run.row) * t.cols + run.col0) * 2;
    json j = {{"file", file},  {"offset", offset},        {"length", uint64_t(run.col1 - run.col0) * 2},
              {"row", run.row}, {"cols", {run.col0, run.col1}}, {"value", run.what},
              {"tensors", run.tensors}, {"format", "bf16"}};
    if (run.step >= 0) j["step"] = run.step;
    if (run.block >= 0) j["block"] = run.block;
    if (run.tensor_row >= 0) j["tensor_row"] = run.tensor_row;
    if (run.scale != 1.0) j["scale"] = run.scale;
    entries.emplace_back(offset, std::move(j));
  }
  return fill_gaps(std::move(entries), file, 0, uint64_t(t.rows) * t.cols * 2);
}

json pack_manifest(const ArenaLayout& layout, const PackIdentity& identity, const std::vector<HostTable>& tables) {
  json ops = json::array();
  for (std::size_t i = 0; i < layout.ops.size(); ++i) {
    const ArenaOp& op = layout.ops[i];
    ops.push_back({{"index", i},
                   {"name", op.name},
                   {"arena", arena_name(op.arena)},
                   {"format", tile_format_name(op.format)},
                   {"block", op.block},
                   {"k_pad", op.k_pad},
                   {"n_pad", op.n_pad},
                   {"bank_offset", op.bank_offset},
                   {"cores", op.slices.size()}});
  }
  json files = json::object();
  for (Arena arena : {Arena::stream, Arena::small}) {
    const uint64_t bank_bytes = layout.arena_bank_bytes[int(arena)];
    files[fmt::format("arena_{}", arena_name(arena))] = {{"file", pack_files::arena_file(arena)},
                                                         {"banks", kDramBanks},
                                                         {"bank_bytes", bank_bytes},
                                                         {"bytes", bank_bytes * kDramBanks},
                                                         {"layout", "bank-major: bank b at b * bank_bytes"}};
  }
  files["offsets_table"] = {{"file", pack_files::kOffsetsTable},
                            {"dtype", "uint32"},
                            {"entries", layout.ops.size()},
                            {"bytes", layout.ops.size() * 4}};
  json ranges = json::array();
  for (Arena arena : {Arena::stream, Arena::small})
    for (json& e : arena_ranges(layout, arena, identity.embodiment)) ranges.push_back(std::move(e));
  for (std::size_t i = 0; i < layout.ops.size(); ++i) {
    ranges.push_back({{"file", pack_files::kOffsetsTable},
                      {"offset", i * 4},
                      {"length", 4},
                      {"op", layout.ops[i].name},
                      {"op_index", i},
                      {"value", "bank offset of the op's region, the same in every bank"},
                      {"format", "uint32"}});
  }
  for (const HostTable& t : tables) {
    const std::string file = t.name + ".bin";
    files[t.name] = table_json(t, file);
    for (json& e : table_ranges(t, file)) ranges.push_back(std::move(e));
  }
  json m = {{"format", "ditmk-pack"},
            {"format_version", 1},
            {"checkpoint", identity.checkpoint},
            {"version", model::version_name(layout.version)},
            {"variant", variant_name(layout.variant)},
            {"kernel", "k4"},
            {"n_blocks", layout.n_blocks},
            {"embodiment", identity.embodiment},
            {"dtype_stream", tile_format_name(layout.dtype_stream)},
            {"dtype_small", tile_format_name(layout.dtype_small)},
            {"tile_order", tile_order_name(layout.tile_order)},
            {"head_dim", layout.head_dim},
            {"head_dim_pad", layout.head_dim_pad},
            {"fold_attn_scale", layout.fold_attn_scale},
            {"files", files},
            {"ops", ops},
            {"ranges", ranges}};
  if (!identity.embodiment_tag.empty()) m["embodiment_tag"] = identity.embodiment_tag;
  if (layout.fold_attn_scale) {
    m["attn_scale"] = 1.0 / std::sqrt(double(layout.head_dim));
    m["attn_scale_note"] = "Q weights and Q biases are stored multiplied by attn_scale; the kernel skips the scale";
  }
  return m;
}

}  // namespace ditmk::tt
