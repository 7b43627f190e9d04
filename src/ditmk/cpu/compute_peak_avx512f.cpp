// The compute-peak chain of the AVX-512F GEMM: vfmadd231ps zmm (16 lanes), what every weight format
// runs on AVX-512 without BF16, and fp32 weights everywhere AVX-512 is.
#include <immintrin.h>

#include "ditmk/cpu/compute_peak.hpp"
#include "ditmk/cpu/compute_peak_chains.hpp"

namespace ditmk::cpu::detail {

double peak_chain_avx512_fp32(long iterations) {
  const __m512 total = run_peak_chains(iterations, _mm512_setzero_ps(), _mm512_set1_ps(1e-3f),
                                       [](__m512 acc, __m512 w) { return _mm512_fmadd_ps(w, w, acc); });
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, total);
  volatile float sink = lanes[0];
  (void)sink;
  return double(iterations) * 24 * 16 * 2;
}

}  // namespace ditmk::cpu::detail
