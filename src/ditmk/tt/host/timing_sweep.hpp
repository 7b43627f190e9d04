#pragma once
// `ditmk emulate --sweep`: the timing model over plan choices (protocol, stream dtype, weight-ring
// depth; readers only in direct mode, the one mode the kernel implements), each on the model's
// first blocks, so a developer sees which choice pays before touching a chip. A block is reported
// on its second appearance, once the weight ring has been running for a block.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ditmk/model/observation.hpp"
#include "ditmk/model/precompute.hpp"
#include "ditmk/model/weights.hpp"
#include "ditmk/tt/host/emu_executor.hpp"

namespace ditmk::tt::host {

struct SweepChoice {
  Protocol protocol = Protocol::seed;
  TileFormat dtype = TileFormat::bfp8_b;
  int cb_w_slots = 0;
};

struct SweepRow {
  SweepChoice choice;
  std::vector<std::pair<std::string, double>> seconds_by_kind;  // block kind -> predicted seconds
  double mean_seconds = 0;
};

// The shortest prefix of the model's blocks in which every block kind appears twice.
int sweep_block_count(const model::ModelConfig& config);
// Both protocols x both stream formats x (8 slots, the plan's default, the most the L1 budget takes).
std::vector<SweepChoice> sweep_choices(const model::ModelConfig& config, const model::Observation& obs);
SweepRow run_sweep_choice(const model::Weights& weights, int embodiment, const model::Observation& obs,
                          const model::CallInputs<double>& call, const SweepChoice& choice, int threads);

std::string sweep_text(const std::vector<SweepRow>& rows);
nlohmann::json to_json(const std::vector<SweepRow>& rows);

}  // namespace ditmk::tt::host
