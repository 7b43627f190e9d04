// The compute-peak chain of the AVX512-BF16 GEMM: vdpbf16ps (bf16 and bfp8_b weights: 16 lanes x 2
// products). Its fp32 weights run the AVX-512F kernel (compute_peak_avx512f.cpp).
#include <immintrin.h>

#include "ditmk/cpu/compute_peak.hpp"
#include "ditmk/cpu/compute_peak_chains.hpp"

namespace ditmk::cpu::detail {
namespace {
void keep(__m512 v) {
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, v);
  volatile float sink = lanes[0];
  (void)sink;
}
}  // namespace

double peak_chain_avx512_bf16(long iterations) {
  const __m512bh ones = (__m512bh)_mm512_set1_epi16(0x3f80);  // bf16 1.0
  const __m512 total = run_peak_chains(iterations, _mm512_setzero_ps(), ones,
                                       [](__m512 acc, __m512bh w) { return _mm512_dpbf16_ps(acc, w, w); });
  keep(total);
  return double(iterations) * 24 * 16 * 2 * 2;
}

}  // namespace ditmk::cpu::detail
