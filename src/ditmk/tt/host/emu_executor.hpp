#pragma once
// `--backend emu`: the action head run by the megakernel on the emulated Blackhole chip. The host
// does what the real host does: the per-call precompute (float64, the reference's ops), the io
// tensors, the arenas loaded into the DRAM banks, the plan's K4 program loaded from its
// ProgramDescriptor with the DiT kernel compiled from its dialect source; then launches. Variants as the seed defines them:
//   steps4  the whole 4-step denoise in one launch;
//   step    blocks + output head per launch, decoder / Euler / encoder on the host between 4 launches;
//   block   the first n DiT blocks on a residual the host gives.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ditmk/core/matrix.hpp"
#include "ditmk/model/denoise.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/precompute.hpp"
#include "ditmk/model/weights.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
#include "ditmk/tt/emu/device.hpp"
#include "ditmk/tt/host/stream_trace.hpp"
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt::host {

struct EmuOptions {
  TileFormat dtype = TileFormat::bf16;  // stream arena format (the tail arena is bf16)
  int threads = 1;                      // host precompute threads
  Protocol protocol = Protocol::seed;
  int cb_w_slots = 0;                   // weight-ring depth in K-blocks (0: the plan's default)
  bool timing = false;                  // the timing model predicts each launch's time on the chip
  std::filesystem::path kernel_cache = dialect::KernelCompiler::default_kernel_cache();
};

struct EmuLaunch {
  emu::LaunchReport report;
  StreamTrace trace;
  dialect::CompileStats compile;  // the kernel builds the program's load took, before the launch
  double wall_seconds = 0;
};

struct EmuResult {
  model::DenoiseResult denoise;  // steps4 / step: actions and every step's velocity
  Matrix<double> residual;       // block: the residual rows [m_logical, width] after the blocks
  std::vector<EmuLaunch> launches;
  bool launches_identical = true;  // repeated launches returned the same bytes
  ArenaLayout layout;
  Protocol protocol = Protocol::seed;
  std::map<std::string, uint32_t> planned_l1;  // bytes per role from the plan
  std::map<std::string, uint32_t> cb_planned;  // CB name -> planned bytes
  std::vector<uint64_t> arena_block_bytes;     // stream arena bytes of each block (one step)
  uint64_t arena_tail_bytes = 0;
};

class EmuExecutor {
 public:
  EmuExecutor(const model::Weights& weights, int embodiment, const EmuOptions& options);

  // The per-call precompute (float64) every run below starts from; pass it in to share it.
  model::CallInputs<double> precompute(const model::Observation& obs) const;

  // steps4: `launches` launches of the whole denoise; results of the first, the others compared.
  EmuResult denoise(const model::Observation& obs, const Matrix<double>& noise, int launches = 1) const;
  EmuResult denoise(const model::Observation& obs, const model::CallInputs<double>& call,
                    const Matrix<double>& noise, int launches = 1) const;
  // step: 4 launches, the host running decoder, Euler and encoder between them.
  EmuResult denoise_by_steps(const model::Observation& obs, const model::CallInputs<double>& call,
                             const Matrix<double>& noise) const;
  // block: the first `n_blocks` DiT blocks of step `step` on `residual` [m_logical, width].
  EmuResult blocks(const model::Observation& obs, const model::CallInputs<double>& call,
                   const Matrix<double>& residual, int step, int n_blocks) const;

 private:
  const model::Weights& weights_;
  int embodiment_;
  EmuOptions options_;
};

}  // namespace ditmk::tt::host
