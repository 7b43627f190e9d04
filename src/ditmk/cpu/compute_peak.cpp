#include "ditmk/cpu/compute_peak.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "ditmk/cpu/compute_peak_chains.hpp"

namespace ditmk::cpu {

namespace detail {

// The portable GEMM is plain C++ compiled for the baseline x86-64 target: 4-lane SSE multiplies
// and adds, which is what this chain compiles to as well.
double peak_chain_portable(long iterations) {
  using v4f = float __attribute__((vector_size(16)));
  const v4f total = run_peak_chains(iterations, v4f{}, v4f{} + 1e-3f, [](v4f acc, v4f w) { return acc + w * w; });
  volatile float sink = total[0];
  (void)sink;
  return double(iterations) * 24 * 4 * 2;
}

}  // namespace detail

namespace {

struct Chain {
  double (*run)(long);
  const char* instruction;
};

// Must follow gemm()'s own choice: amx_bf16 runs the AVX-512 kernels.
Chain chain_for(Isa isa, WeightFormat format) {
  switch (isa) {
    case Isa::amx_bf16:
    case Isa::avx512_bf16:
      if (format == WeightFormat::fp32) return {detail::peak_chain_avx512_fp32, "vfmadd231ps zmm"};
      return {detail::peak_chain_avx512_bf16, "vdpbf16ps zmm"};
    case Isa::avx2: return {detail::peak_chain_avx2_fp32, "vfmadd231ps ymm"};
    case Isa::portable: break;
  }
  return {detail::peak_chain_portable, "mulps + addps xmm"};
}

}  // namespace

ComputePeak measure_compute_peak(WorkerPool& pool, Isa isa, WeightFormat format, int passes) {
  const Chain chain = chain_for(isa, format);
  // ~20-50 ms per pass on a current core: long enough for the clock to settle, short enough that
  // a pass or two escapes the other tenants of a shared machine.
  const long iterations = 2'000'000;
  std::vector<double> flops(std::size_t(pool.size()));
  double best = 0;
  for (int pass = 0; pass < passes; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    auto program = [&](int t) { flops[std::size_t(t)] = chain.run(iterations); };
    pool.run(program);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double total = 0;
    for (double f : flops) total += f;
    best = std::max(best, total / seconds);
  }
  return {best, chain.instruction, passes};
}

}  // namespace ditmk::cpu
