// Compute-peak chain for the AVX512-VNNI int8 GEMM: vpdpbusd zmm, 16 lanes x 4 multiply-adds.
#include <immintrin.h>

#include "ditmk/cpu/compute_peak.hpp"
#include "ditmk/cpu/compute_peak_chains.hpp"
#include "ditmk/cpu/kernels/vpdpbusd.hpp"

namespace ditmk::cpu::detail {

// Through GCC's builtin on its own vector type, as the GEMM does: with _mm512_dpbusd_epi32's
// __m512i casts GCC 12 keeps the 24 chains in memory.
double peak_chain_avx512_vnni(long iterations) {
  const __v16si total = run_peak_chains(iterations, __v16si{}, __v16si{} + 0x01010101,
                                        [](__v16si acc, __v16si w) { return DITMK_VPDPBUSD_ZMM(acc, w, w); });
  volatile int sink = total[0];
  (void)sink;
  return double(iterations) * 24 * 16 * 4 * 2;
}

}  // namespace ditmk::cpu::detail
