#pragma once
// Which instruction set the engine's kernels run, chosen by measurement. The newest instruction is
// not always the fastest: on Sapphire Rapids vdpbf16ps issues at half the rate of the fp32 FMA, so
// bf16 weights widened to fp32 (avx512f) beat the AVX512-BF16 path. So the first engine of a weight
// format on a machine times the paths this CPU can run on the head's own products, keeps the fastest,
// and caches the choice per CPU (cpu_signature) beside the weight cache; later engines read it.
//
// Noise: candidates are timed round-robin (each round times every candidate once, so a slow moment
// of a shared machine falls on all of them), kRounds rounds, and each one's median counts. The
// default is the most capable candidate (the order of the ISA ladder); another replaces it only
// when its median is faster by more than kSwitchMargin, so two paths within noise of each other keep
// the ladder's order from run to run.
#include <functional>
#include <string>
#include <vector>

#include "ditmk/cpu/kernels/isa.hpp"
#include "ditmk/cpu/kernels/packed_weights.hpp"

namespace ditmk::cpu {

inline constexpr int kCalibrationRounds = 5;
inline constexpr double kSwitchMargin = 0.03;
// Bump when a kernel path changes enough that cached choices should be measured again.
inline constexpr int kCalibrationVersion = 1;

struct IsaTiming {
  Isa isa;
  double ms = 0;  // median over the rounds of one timing of the head's products
};

struct IsaChoice {
  Isa isa = Isa::portable;
  std::string source;              // "measured", "cached", "only candidate" or "forced"
  std::vector<IsaTiming> timings;  // measured or cached, least capable first; empty otherwise
  std::string cache_file;          // where the choice is kept ("" when not cached)
};

// What the choice depends on: cpu_identity() (vendor, family, model, stepping, feature words), the
// data cache sizes, the thread count and kCalibrationVersion (one line of text).
std::string cpu_signature(int threads);

// The paths to time: every supported ISA from avx2 up to `cap` (portable only where no other runs:
// plain C++ is never the fastest where vector code runs).
std::vector<Isa> isa_candidates(Isa cap);

// The most capable candidate unless another's median is faster by more than kSwitchMargin (then the
// fastest). `timings` least capable first.
Isa pick_isa(const std::vector<IsaTiming>& timings);

// The choice for `format` under `signature`: from `cache_dir`'s file for this signature when it holds
// one for these candidates, else measured with `time_once` (one timing of the head's products on
// the given ISA, in ms) and written there. A missing file is measured quietly; an unreadable,
// corrupt or foreign one is measured again with one warning line on stderr, never used. An empty
// cache_dir measures without caching.
IsaChoice calibrate_isa(WeightFormat format, const std::vector<Isa>& candidates, const std::string& signature,
                        const std::string& cache_dir, const std::function<double(Isa)>& time_once);

}  // namespace ditmk::cpu
