// Compute-peak chain for the AVX-VNNI int8 GEMM: vpdpbusd ymm (VEX), 8 lanes x 4 multiply-adds, on
// 12 chains (VEX reaches 16 registers).
#include <immintrin.h>

#include "ditmk/cpu/compute_peak.hpp"
#include "ditmk/cpu/compute_peak_chains.hpp"
#include "ditmk/cpu/kernels/vpdpbusd.hpp"

namespace ditmk::cpu::detail {

double peak_chain_avx_vnni(long iterations) {
  const __v8si total = run_peak_chains<12>(iterations, __v8si{}, __v8si{} + 0x01010101,
                                           [](__v8si acc, __v8si w) { return DITMK_VPDPBUSD_YMM(acc, w, w); });
  volatile int sink = total[0];
  (void)sink;
  return double(iterations) * 12 * 8 * 4 * 2;
}

}  // namespace ditmk::cpu::detail
