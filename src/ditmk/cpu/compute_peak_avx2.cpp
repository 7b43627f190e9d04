// Compute-peak chains for the AVX2 GEMMs: every float weight format is widened to fp32 and
// multiplied with 8-lane vfmadd; int8 without VNNI takes vpsignb, vpmaddubsw, vpmaddwd and vpaddd per
// 32 multiply-adds. 12 chains: VEX code reaches 16 registers, and more accumulators than that spill.
#include <immintrin.h>

#include "ditmk/cpu/compute_peak.hpp"
#include "ditmk/cpu/compute_peak_chains.hpp"

namespace ditmk::cpu::detail {

double peak_chain_avx2_fp32(long iterations) {
  const __m256 total = run_peak_chains<12>(iterations, _mm256_setzero_ps(), _mm256_set1_ps(1e-3f),
                                           [](__m256 acc, __m256 w) { return _mm256_fmadd_ps(w, w, acc); });
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, total);
  volatile float sink = lanes[0];
  (void)sink;
  return double(iterations) * 12 * 8 * 2;
}

// The int8 kernel's sequence per (row, 32 columns, k quad). The sign comes from the accumulator so
// that no two chains share a product the compiler could compute once. 8 chains: each step holds
// two more registers in flight, and 12 chains spill.
double peak_chain_avx2_int8(long iterations) {
  const __m256i ones = _mm256_set1_epi16(1);
  const __m256i total = run_peak_chains<8>(iterations, _mm256_set1_epi8(1), _mm256_set1_epi8(3), [ones](__m256i acc, __m256i w) {
    const __m256i pairs = _mm256_maddubs_epi16(_mm256_abs_epi8(w), _mm256_sign_epi8(w, acc));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, ones));
  });
  volatile int sink = _mm256_cvtsi256_si32(total);
  (void)sink;
  return double(iterations) * 8 * 32 * 2;
}

}  // namespace ditmk::cpu::detail
