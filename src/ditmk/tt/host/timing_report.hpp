#pragma once
// What the timing model says about a megakernel run (docs/timing.md): the predicted time of every
// DiT block with the DRAM-bound lower bound beside it and where its critical path spends the time,
// per step and per denoise, how busy each core's processors are, and the component measurements of
// TARGET.md section 7 as the model reproduces them (QKV matmul, hub rounds, FF2 chunk rounds).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ditmk/tt/emu/timing_model.hpp"
#include "ditmk/tt/host/emu_executor.hpp"

namespace ditmk::tt::host {

struct BlockTiming {
  int step = 0;
  int index = 0;     // DiT block
  std::string kind;  // self, cross_all, cross_text, cross_image
  double seconds = 0;
  double dram_bound_seconds = 0;
  emu::PathBreakdown breakdown;
};

struct CoreBusy {
  emu::CoreCoord core;
  std::string role;
  double busy[3] = {};  // fraction of the launch each processor (NCRISC, BRISC, TRISC) worked
};

// Rounds of one phase: from the moment the last producer starts writing (or the previous round
// arrived, if later) to the moment the last receiver holds the data.
struct RoundStats {
  std::string phase;
  int count = 0;
  double min_seconds = 0, mean_seconds = 0, max_seconds = 0;
};

struct TimingSummary {
  Protocol protocol = Protocol::seed;
  std::vector<BlockTiming> blocks;
  double seconds_per_block = 0;  // mean over the blocks of the run
  std::optional<double> seconds_per_step, seconds_per_denoise;
  double launch_seconds = 0;  // all launches together
  double qkv_matmul_seconds = 0;  // TRISC busy time of a self block's QKV matmul, mean over cores
  std::vector<RoundStats> rounds;
  std::vector<CoreBusy> cores;
};

// Throws ditmk::Error when the run was not timed (EmuOptions::timing).
TimingSummary summarize_timing(const EmuResult& result);
nlohmann::json to_json(const TimingSummary& summary);
// The human-readable lines `ditmk emulate --timing` prints.
std::string timing_text(const TimingSummary& summary);

}  // namespace ditmk::tt::host
