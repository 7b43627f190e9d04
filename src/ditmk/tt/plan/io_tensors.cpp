#include "ditmk/tt/plan/io_tensors.hpp"

#include <fmt/format.h>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/plan/layout_config.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt {

namespace {

IoTensor tiles(std::string_view name, TileFormat format, int rows, int cols) {
  return {std::string(name), IoMemory::dram_interleaved, IoLayout::tile, format, rows, cols, uint32_t(tile_bytes(format)), {}, 0};
}

IoTensor bf16_rows(std::string_view name, int rows, int cols) {
  return {std::string(name), IoMemory::dram_interleaved, IoLayout::row_major, TileFormat::bf16, rows, cols,
          uint32_t(cols) * 2, {}, 0};
}

// An arena: bank b's image is page b, a row of whole tiles.
IoTensor arena(std::string_view name, TileFormat format, uint64_t bank_bytes) {
  require(bank_bytes % tile_bytes(format) == 0 && bank_bytes <= UINT32_MAX,
          "{}: {} B per bank is not whole {} tiles of one page", name, bank_bytes, tile_format_name(format));
  IoTensor t = tiles(name, format, int(kDramBanks) * kTile, int(bank_bytes / tile_bytes(format)) * kTile);
  t.page_bytes = uint32_t(bank_bytes);
  return t;
}

// A cross block's hoisted K or V: [heads x padded keys, 64] tiles (K stored as K^T tiles).
IoTensor head_keys(const ArenaLayout& layout, std::string_view name, int block) {
  const int keys = layout.keys_of(block).chunks() * kKeyChunk;
  return tiles(name, TileFormat::bf16, layout.n_heads * keys, 2 * kTile);
}

int mask_cols(const ArenaLayout& layout, model::KeySet keys) {
  for (const KeySetShape& k : layout.key_sets)
    if (k.keys == keys) return k.chunks() * kKeyChunk;
  fail("the layout has no {} key set", model::key_set_name(keys));
}

}  // namespace

uint64_t IoTensor::bytes() const {
  const uint64_t elements = uint64_t(rows) * uint64_t(cols);
  return layout == IoLayout::tile ? elements / kTileElems * tile_bytes(format) : elements * 2;
}

IoTensor dram_io_tensor(const ArenaLayout& layout, std::string_view slot) {
  const int n = layout.n_blocks, d = layout.width;
  if (slot == "arena_stream") return arena(slot, layout.dtype_stream, layout.arena_bank_bytes[int(Arena::stream)]);
  if (slot == "arena_small") return arena(slot, layout.dtype_small, layout.arena_bank_bytes[int(Arena::small)]);
  if (slot == "adaln_rows") return bf16_rows(slot, kSteps * (2 * n + 2), d);
  if (slot == "bias_rows") return bf16_rows(slot, 4 * n + 4, layout.ff_dim);
  if (slot == "b2_step") return bf16_rows(slot, kSteps, d);
  if (slot == "b3_pos_rows") return bf16_rows(slot, layout.m_pad, d);
  if (slot == "future_tokens") return bf16_rows(slot, layout.n_future_tokens, d);
  if (slot == "state_features") return bf16_rows(slot, 1, d);
  if (slot == "self_mask") return bf16_rows(slot, kMPad, kMPad);
  if (slot == "text_mask") return bf16_rows(slot, kMPad, mask_cols(layout, model::KeySet::text));
  if (slot == "image_mask") return bf16_rows(slot, kMPad, mask_cols(layout, model::KeySet::image));
  if (slot == "all_mask") return bf16_rows(slot, kMPad, mask_cols(layout, model::KeySet::all));
  if (slot.starts_with("kv_k_") || slot.starts_with("kv_v_")) {
    const std::string block(slot.substr(5));
    require(!block.empty() && block.find_first_not_of("0123456789") == std::string::npos,
            "io slot '{}' names no block", slot);
    return head_keys(layout, slot, std::stoi(block));
  }
  if (slot == "x_out") return tiles(slot, TileFormat::bf16, kMPad, d);
  if (slot == "y_out") return tiles(slot, TileFormat::bf16, kMPad, layout.out_dim);
  // The Euler state and the actions stay fp32 on the device; the taps are the bf16 decoder outputs.
  if (slot == "x_t" || slot == "action_pred") return tiles(slot, TileFormat::fp32, kMPad, layout.a_pad);
  if (slot == "velocity_out") return tiles(slot, TileFormat::bf16, kSteps * kMPad, layout.a_pad);
  fail("io slot '{}' is not a DRAM tensor of the megakernel", slot);
}

bool io_present(const ProgramSpec& spec, const IoSlot& slot) {
  if (slot.required) return true;
  return slot.name == "velocity_out" && spec.kernel == Kernel::k4 && spec.cta("k4_velocity_out_present") == 1;
}

std::vector<IoTensor> io_tensors(const ProgramSpec& spec) {
  std::vector<IoTensor> out;
  for (const IoSlot& slot : spec.io) {
    if (!io_present(spec, slot)) continue;
    const CBSpec* backed = nullptr;
    for (const CBSpec& cb : spec.cbs)
      if (cb.tensor_backed == slot.name) backed = &cb;
    if (backed == nullptr) {
      out.push_back(dram_io_tensor(spec.layout, slot.name));
      continue;
    }
    // one shard a core: x_rep a [32, width] tile row of the residual, a_rep the [64, K] in0 arena
    const int cores = int(spec.core_map.cores_of(backed->role_set).size());
    const int shard_rows = slot.name == "x_rep" ? kTile : kMPad;
    const uint64_t shard_elems = uint64_t(backed->total_bytes / backed->page_bytes) * kTileElems;
    require(shard_elems % (uint64_t(shard_rows) * kTile) == 0, "{}: a shard of {} B is not whole [{}, 32k] tiles",
            slot.name, backed->total_bytes, shard_rows);
    const int cols = int(shard_elems / shard_rows);
    out.push_back({slot.name, IoMemory::l1_sharded, IoLayout::tile, backed->format, cores * shard_rows, cols,
                   backed->page_bytes, backed->role_set, backed->total_bytes});
  }
  return out;
}

}  // namespace ditmk::tt
