#include "ditmk/cpu/compute_peak.hpp"

#include <emmintrin.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "ditmk/cpu/compute_peak_chains.hpp"

namespace ditmk::cpu {

namespace detail {

// The portable GEMM is plain C++ compiled for the baseline x86-64 target: 4-lane SSE multiplies
// and adds, which is what this chain compiles to as well. 12 chains: SSE has 16 registers.
double peak_chain_portable(long iterations) {
  using v4f = float __attribute__((vector_size(16)));
  const v4f total = run_peak_chains<12>(iterations, v4f{}, v4f{} + 1e-3f, [](v4f acc, v4f w) { return acc + w * w; });
  volatile float sink = total[0];
  (void)sink;
  return double(iterations) * 12 * 4 * 2;
}

// What the portable int8 GEMM's integer products can at best use on the baseline x86-64 target:
// SSE2's pmaddwd (8 16-bit multiply-adds into 4 int32 sums) and a paddd to accumulate them.
double peak_chain_portable_int8(long iterations) {
  const __m128i total = run_peak_chains<12>(iterations, _mm_setzero_si128(), _mm_set1_epi16(3),
                                            [](__m128i acc, __m128i w) { return _mm_add_epi32(acc, _mm_madd_epi16(w, w)); });
  volatile int sink = _mm_cvtsi128_si32(total);
  (void)sink;
  return double(iterations) * 12 * 8 * 2;
}

}  // namespace detail

namespace {

struct Chain {
  double (*run)(long);
  const char* instruction;
};

// Must follow gemm()'s own choice: amx_bf16 runs the AVX-512 kernels, int8 the dot product of
// int8_dot_for.
Chain chain_for(Isa isa, WeightFormat format) {
  if (format == WeightFormat::int8) {
    switch (int8_dot_for(isa)) {
      case Int8Dot::avx512_vnni: return {detail::peak_chain_avx512_vnni, "vpdpbusd zmm"};
      case Int8Dot::avx_vnni: return {detail::peak_chain_avx_vnni, "vpdpbusd ymm"};
      case Int8Dot::avx2: return {detail::peak_chain_avx2_int8, "vpmaddubsw + vpmaddwd ymm"};
      case Int8Dot::portable: return {detail::peak_chain_portable_int8, "pmaddwd + paddd xmm"};
    }
  }
  switch (isa) {
    case Isa::amx_bf16:
    case Isa::avx512_bf16:
      if (format == WeightFormat::fp32) return {detail::peak_chain_avx512_fp32, "vfmadd231ps zmm"};
      return {detail::peak_chain_avx512_bf16, "vdpbf16ps zmm"};
    case Isa::avx512f: return {detail::peak_chain_avx512_fp32, "vfmadd231ps zmm"};
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
