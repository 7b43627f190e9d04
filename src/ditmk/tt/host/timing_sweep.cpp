#include "ditmk/tt/host/timing_sweep.hpp"

#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/host/call_tensors.hpp"
#include "ditmk/tt/host/emu_executor.hpp"
#include "ditmk/tt/host/timing_report.hpp"
#include "ditmk/tt/plan/cb_tables.hpp"
#include "ditmk/tt/plan/program_builder.hpp"

namespace ditmk::tt::host {

namespace {

constexpr int kFewSlots = 8;
constexpr int kMostSlotsTried = 64;

// Whether the K4 plan of these blocks fits L1 with `slots` K-blocks of weight ring.
bool slots_fit(const model::ModelConfig& config, const LayoutConfig& keys, TileFormat dtype, int slots) {
  ArenaOptions arena;
  arena.variant = Variant::block;
  arena.dtype_stream = dtype;
  ProgramOptions options;
  options.cb_w_slots = slots;
  try {
    build_program_spec(blackhole_core_map(), plan_arena(config, keys, arena), options);
    return true;
  } catch (const Error&) {
    return false;
  }
}

model::ModelConfig first_blocks(model::ModelConfig config, int n) {
  config.n_blocks = n;
  config.block_keys.resize(std::size_t(n));
  return config;
}

}  // namespace

int sweep_block_count(const model::ModelConfig& config) {
  std::map<model::KeySet, int> seen;
  for (int b = 0; b < config.n_blocks; ++b) {
    ++seen[config.block_keys[std::size_t(b)]];
    bool twice = true;
    for (int c = 0; c < config.n_blocks; ++c) twice = twice && seen[config.block_keys[std::size_t(c)]] >= 2;
    if (twice) return b + 1;
  }
  return config.n_blocks;
}

std::vector<SweepChoice> sweep_choices(const model::ModelConfig& config, const model::Observation& obs) {
  const model::ModelConfig blocks = first_blocks(config, sweep_block_count(config));
  const LayoutConfig keys = observation_layout(blocks, obs);
  std::vector<SweepChoice> out;
  for (TileFormat dtype : {TileFormat::bfp8_b, TileFormat::bf16}) {
    const int plan = default_cb_w_slots(Kernel::k4, dtype);
    int most = plan;
    while (most < kMostSlotsTried && slots_fit(blocks, keys, dtype, most + 1)) ++most;
    for (Protocol protocol : {Protocol::seed, Protocol::onehub})
      for (int slots : std::set<int>{kFewSlots, plan, most}) out.push_back({protocol, dtype, slots});
  }
  return out;
}

SweepRow run_sweep_choice(const model::Weights& weights, int embodiment, const model::Observation& obs,
                          const model::CallInputs<double>& call, const SweepChoice& choice, int threads) {
  const int n = sweep_block_count(weights.config);
  EmuOptions options{choice.dtype, threads, choice.protocol, choice.cb_w_slots, true};
  Matrix<double> h(weights.config.m_rows(), weights.config.dims.width);
  for (std::size_t i = 0; i < h.data.size(); ++i) h.data[i] = double(i % 11) / 11.0 - 0.5;
  const EmuResult result = EmuExecutor(weights, embodiment, options).blocks(obs, call, h, 0, n);
  const TimingSummary summary = summarize_timing(result);
  // the last appearance of each kind: the weight ring has been streaming for at least one block
  std::map<std::string, double> last;
  std::vector<std::string> order;
  for (const BlockTiming& b : summary.blocks) {
    if (!last.count(b.kind)) order.push_back(b.kind);
    last[b.kind] = b.seconds;
  }
  SweepRow row{choice, {}, 0};
  for (const std::string& kind : order) {
    row.seconds_by_kind.push_back({kind, last[kind]});
    row.mean_seconds += last[kind] / double(order.size());
  }
  return row;
}

std::string sweep_text(const std::vector<SweepRow>& rows) {
  std::string out = "plan choices, predicted us per block (readers in direct mode: the only mode implemented)\n";
  out += "  protocol dtype    cb_w slots ";
  for (const auto& [kind, seconds] : rows.front().seconds_by_kind) out += fmt::format(" {:>11}", kind);
  out += "        mean\n";
  for (const SweepRow& r : rows) {
    out += fmt::format("  {:<8} {:<8} {:>10} ", protocol_name(r.choice.protocol), tile_format_name(r.choice.dtype),
                       r.choice.cb_w_slots);
    for (const auto& [kind, seconds] : r.seconds_by_kind) out += fmt::format(" {:>11.1f}", seconds * 1e6);
    out += fmt::format(" {:>11.1f}\n", r.mean_seconds * 1e6);
  }
  return out;
}

nlohmann::json to_json(const std::vector<SweepRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const SweepRow& r : rows) {
    nlohmann::json kinds = nlohmann::json::object();
    for (const auto& [kind, seconds] : r.seconds_by_kind) kinds[kind] = seconds * 1e6;
    out.push_back({{"protocol", protocol_name(r.choice.protocol)},
                   {"dtype", tile_format_name(r.choice.dtype)},
                   {"cb_w_slots", r.choice.cb_w_slots},
                   {"reader_mode", "direct"},
                   {"us_by_kind", kinds},
                   {"us_mean", r.mean_seconds * 1e6}});
  }
  return out;
}

}  // namespace ditmk::tt::host
