#include "ditmk/tt/host/emu_report.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "ditmk/model/float64_ops.hpp"
#include "ditmk/tt/emu/chip.hpp"

namespace ditmk::tt::host {

Agreement agreement(const Matrix<double>& got, const Matrix<double>& want) {
  double dot = 0, gg = 0, ww = 0, diff = 0;
  for (std::size_t i = 0; i < want.data.size(); ++i) {
    dot += got.data[i] * want.data[i];
    gg += got.data[i] * got.data[i];
    ww += want.data[i] * want.data[i];
    diff += (got.data[i] - want.data[i]) * (got.data[i] - want.data[i]);
  }
  return {dot / std::sqrt(gg * ww), std::sqrt(diff / ww)};
}

VsReference compare_denoise(const model::DenoiseResult& got, const model::DenoiseResult& want) {
  VsReference vs;
  vs.actions = agreement(got.actions, want.actions);
  for (std::size_t s = 0; s < want.velocities.size() && s < got.velocities.size(); ++s) {
    const Agreement v = agreement(got.velocities[s], want.velocities[s]);
    vs.max_step_rel_l2 = std::max(vs.max_step_rel_l2, v.rel_l2);
    vs.min_step_cos = std::min(vs.min_step_cos, v.cos);
  }
  return vs;
}

std::vector<BlockRow> block_table(const EmuResult& result) {
  const double rate =
      result.layout.dtype_stream == TileFormat::bfp8_b ? emu::kDramBfp8BytesPerSecond : emu::kDramBf16BytesPerSecond;
  const EmuLaunch& launch = result.launches.back();
  std::vector<BlockRow> rows;
  for (int b = 0; b < result.layout.n_blocks; ++b) {
    BlockRow row;
    row.block = b;
    row.arena_bytes = result.arena_block_bytes.at(b);
    row.streamed_bytes = launch.trace.block_weight_bytes.at(b);
    row.steps = result.layout.variant == Variant::steps4 ? 4 : 1;
    row.dram_bound_seconds = double(row.arena_bytes) / rate;
    rows.push_back(row);
  }
  return rows;
}

Matrix<double> reference_block(const model::Weights& w, const model::CallInputs<double>& call,
                               const model::StepTables<double>& tables, int b, int step, Matrix<double> h) {
  const model::Float64Ops ops{1};
  const auto& blk = w.blocks[b];
  const auto& d = w.config.dims;
  const Matrix<double>& adaln = tables.adaln[step];
  const Matrix<double> n = model::layernorm_modulate(h, 1e-5, adaln.row(2 * b), adaln.row(2 * b + 1));
  const Matrix<double> q = ops.linear(n, blk.q, model::Act::none);
  Matrix<double> attn;
  if (w.config.is_cross(b)) {
    attn = ops.attention(q, call.cross_k[b], call.cross_v[b], &call.key_mask[b], d.n_heads, d.head_dim);
  } else {
    attn = ops.attention(q, ops.linear(n, blk.k, model::Act::none), ops.linear(n, blk.v, model::Act::none), nullptr,
                         d.n_heads, d.head_dim);
  }
  ops.add_inplace(h, ops.linear(attn, blk.out, model::Act::none));
  const Matrix<double> n2 = ops.layernorm(h, nullptr, nullptr, 1e-5);
  ops.add_inplace(h, ops.linear(ops.linear(n2, blk.ff1, model::Act::gelu_tanh), blk.ff2, model::Act::none));
  return h;
}

std::vector<emu::CbHighWater> high_water_by_name(const emu::Counters& counters) {
  std::vector<emu::CbHighWater> out;
  for (const emu::CbHighWater& cb : counters.cb_high_water) {
    auto same = std::find_if(out.begin(), out.end(), [&](const emu::CbHighWater& o) { return o.name == cb.name; });
    if (same == out.end()) out.push_back(cb);
    else if (cb.used_bytes > same->used_bytes) *same = cb;
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

nlohmann::json to_json(const EmuResult& result, const VsReference& vs) {
  const EmuLaunch& last = result.launches.back();
  nlohmann::json high_water = nlohmann::json::object();
  for (const emu::CbHighWater& cb : high_water_by_name(last.report.counters)) {
    high_water[cb.name] = {{"used", cb.used_bytes}, {"planned", cb.planned_bytes}, {"core", emu::core_name(cb.core)}};
  }
  nlohmann::json faults = nlohmann::json::array();
  for (const emu::Fault& f : last.report.faults) faults.push_back(emu::to_string(f));
  nlohmann::json blocks = nlohmann::json::array();
  for (const BlockRow& row : block_table(result)) {
    blocks.push_back({{"block", row.block},
                      {"arena_bytes", row.arena_bytes},
                      {"streamed_bytes", row.streamed_bytes},
                      {"steps", row.steps},
                      {"dram_bound_us", row.dram_bound_seconds * 1e6},
                      {"planned_us", kPlannedBlockSeconds * 1e6}});
  }
  double wall = 0;
  for (const EmuLaunch& l : result.launches) wall += l.wall_seconds;
  return {{"version", model::version_name(result.layout.version)},
          {"variant", variant_name(result.layout.variant)},
          {"dtype", tile_format_name(result.layout.dtype_stream)},
          {"n_blocks", result.layout.n_blocks},
          {"cos_vs_ref", vs.actions.cos},
          {"rel_l2_vs_ref", vs.actions.rel_l2},
          {"max_step_rel_l2", vs.max_step_rel_l2},
          {"min_step_cos", vs.min_step_cos},
          {"launches", result.launches.size()},
          {"launches_identical", result.launches_identical},
          {"cb_high_water", high_water},
          {"planned_l1", result.planned_l1},
          {"faults", faults},
          {"dram_bytes_per_block", blocks},
          {"arena_tail_bytes", result.arena_tail_bytes},
          {"streamed_tail_bytes", last.trace.tail_weight_bytes},
          {"counters", emu::to_json(last.report.counters)},
          {"time_lower_bound", emu::to_json(last.report.bound)},
          {"wall_seconds", wall}};
}

}  // namespace ditmk::tt::host
