#pragma once
// What an emulated run shows: agreement with the float64 reference, the chip's counters, each CB's
// high-water mark against its plan, and per DiT block the DRAM bytes streamed next to the
// DRAM-bound lower bound at the measured streaming rate and the seed's planned block time.
#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ditmk/core/matrix.hpp"
#include "ditmk/model/denoise.hpp"
#include "ditmk/model/precompute.hpp"
#include "ditmk/model/weights.hpp"
#include "ditmk/tt/host/emu_executor.hpp"

namespace ditmk::tt::host {

// The seed's planned time of one DiT block on the p150 (TARGET.md section 7).
constexpr double kPlannedBlockSeconds = 77e-6;

struct Agreement {
  double cos = 0, rel_l2 = 0;
};
Agreement agreement(const Matrix<double>& got, const Matrix<double>& want);

struct VsReference {
  Agreement actions;            // the actions (steps4 / step) or the residual (block)
  double max_step_rel_l2 = 0;   // worst step velocity (steps4 / step)
  double min_step_cos = 1;
};
VsReference compare_denoise(const model::DenoiseResult& got, const model::DenoiseResult& want);

struct BlockRow {
  int block = 0;
  uint64_t arena_bytes = 0;     // the block's weights in the stream arena (one step)
  uint64_t streamed_bytes = 0;  // what the kernel read of them in the launch (all its steps)
  int steps = 1;
  double dram_bound_seconds = 0;  // arena bytes at the direct-mode streaming rate of the format
};
std::vector<BlockRow> block_table(const EmuResult& result);

// The reference's DiT block b at `step` on residual h (float64), for the block variant.
Matrix<double> reference_block(const model::Weights& w, const model::CallInputs<double>& call,
                               const model::StepTables<double>& tables, int block, int step, Matrix<double> h);

// One high-water mark per CB name: a CB placed on several kernel groups (cb_a) keeps its fullest.
std::vector<emu::CbHighWater> high_water_by_name(const emu::Counters& counters);

nlohmann::json to_json(const EmuResult& result, const VsReference& vs);

}  // namespace ditmk::tt::host
