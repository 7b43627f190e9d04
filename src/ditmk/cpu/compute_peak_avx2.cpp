// Compute-peak chain for the AVX2 GEMM: every weight format is widened to fp32 and multiplied with
// 8-lane vfmadd.
#include <immintrin.h>

#include "ditmk/cpu/compute_peak.hpp"
#include "ditmk/cpu/compute_peak_chains.hpp"

namespace ditmk::cpu::detail {

double peak_chain_avx2_fp32(long iterations) {
  const __m256 total = run_peak_chains(iterations, _mm256_setzero_ps(), _mm256_set1_ps(1e-3f),
                                       [](__m256 acc, __m256 w) { return _mm256_fmadd_ps(w, w, acc); });
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, total);
  volatile float sink = lanes[0];
  (void)sink;
  return double(iterations) * 24 * 8 * 2;
}

}  // namespace ditmk::cpu::detail
