#include "ditmk/tt/host/launch_inputs.hpp"

#include <fmt/format.h>

#include <set>

#include "ditmk/tt/host/call_tensors.hpp"
#include "ditmk/tt/pack/arena_image.hpp"
#include "ditmk/tt/pack/host_tables.hpp"
#include "ditmk/tt/plan/layout_config.hpp"
#include "ditmk/tt/plan/limits.hpp"
#include "ditmk/tt/plan/program_builder.hpp"

namespace ditmk::tt::host {

namespace {

std::vector<std::byte> table_bytes(const HostTable& t) {
  Matrix<double> m(t.rows, t.cols);
  m.data = t.values;
  return bf16_rows(m, t.rows);
}

TensorBytes weight_tensors(const ArenaLayout& layout, const model::ModelConfig& config, const model::Weights& weights,
                           int embodiment, const LayoutConfig& keys) {
  TensorBytes out;
  for (Arena arena : {Arena::stream, Arena::small}) {
    if (layout.arena_bank_bytes[int(arena)] == 0) continue;
    out.emplace_back(arena == Arena::stream ? "arena_stream" : "arena_small", arena_image(layout, arena, weights, embodiment));
  }
  ArenaOptions steps4;
  steps4.dtype_stream = layout.dtype_stream;
  const ArenaLayout table_layout = plan_arena(config, keys, steps4);
  for (const HostTable& t : host_tables(table_layout, weights, embodiment)) {
    const bool wanted = t.name == "adaln_rows" || t.name == "bias_rows" || layout.variant == Variant::steps4;
    if (wanted) out.emplace_back(t.name, table_bytes(t));
  }
  return out;
}

TensorBytes call_tensors(const ArenaLayout& layout, const model::ModelConfig& config, const model::Observation& obs,
                         const model::CallInputs<double>& call) {
  TensorBytes out;
  out.emplace_back("self_mask", key_mask_rows(kMPad, kMPad, layout.m_logical));
  std::set<model::KeySet> masks_done;
  for (int b = 0; b < layout.n_blocks; ++b) {
    if (!layout.is_cross(b)) continue;
    const KeySetShape& shape = layout.keys_of(b);
    const std::vector<int> keys = admissible_keys(obs, shape.keys, config.mask_padding);
    out.emplace_back(fmt::format("kv_k_{}", b), head_key_tiles(layout, call.cross_k[b], keys, shape.chunks(), true));
    out.emplace_back(fmt::format("kv_v_{}", b), head_key_tiles(layout, call.cross_v[b], keys, shape.chunks(), false));
    // the image set needs no mask when it fills its chunks exactly
    const bool present = shape.keys != model::KeySet::image || shape.l_real != shape.l_pad;
    if (present && masks_done.insert(shape.keys).second) {
      out.emplace_back(std::string(model::key_set_name(shape.keys)) + "_mask",
                       key_mask_rows(kMPad, shape.chunks() * kKeyChunk, int(keys.size())));
    }
  }
  if (layout.variant == Variant::steps4) out.emplace_back("state_features", bf16_rows(call.state_token, 1));
  return out;
}

}  // namespace

std::vector<std::byte> state_tensor(const ArenaLayout& layout, const Matrix<double>& noise) {
  return padded_tiles(noise, layout.action_rows[0], kMPad, layout.a_pad, TileFormat::fp32);
}

std::vector<std::string> output_tensors(Variant variant) {
  switch (variant) {
    case Variant::block: return {"x_out"};
    case Variant::step: return {"y_out"};
    case Variant::steps4: return {"velocity_out", "action_pred"};
  }
  return {};
}

LaunchInputs launch_inputs(const model::Weights& weights, const model::ModelConfig& config, int embodiment,
                           const model::Observation& obs, const model::CallInputs<double>& call, Variant variant,
                           TileFormat dtype) {
  ArenaOptions options;
  options.variant = variant;
  options.dtype_stream = dtype;
  const LayoutConfig keys = observation_layout(config, obs);
  LaunchInputs in;
  in.layout = plan_arena(config, keys, options);
  in.tensors = weight_tensors(in.layout, config, weights, embodiment, keys);
  for (auto& t : call_tensors(in.layout, config, obs, call)) in.tensors.push_back(std::move(t));
  return in;
}

ProgramSpec launch_program(const ArenaLayout& layout, Protocol protocol, int step_index, int cb_w_slots,
                           const std::map<std::string, uint32_t>& dram) {
  ProgramOptions program;
  program.kernel = Kernel::k4;
  program.protocol = protocol;
  program.step_index = step_index;
  if (cb_w_slots > 0) program.cb_w_slots = cb_w_slots;
  const ProgramSpec dry = build_program_spec(blackhole_core_map(), layout, program);
  program.dry_run = false;
  program.io.insert(dram.begin(), dram.end());
  // the sharded L1 tensors behind cb_x / cb_a are addressed by their CB
  program.io["x_rep"] = dry.cb_l1_address.at("compute").at("cb_x");
  program.io["a_rep"] = dry.cb_l1_address.at("compute").at("cb_a");
  return build_program_spec(blackhole_core_map(), layout, program);
}

}  // namespace ditmk::tt::host
