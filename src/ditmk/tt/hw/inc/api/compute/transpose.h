#pragma once
// tt-metal 0.81.1's transpose: transpose_tile, a CB tile into DST[idst] transposed (rows become
// columns), after transpose_init (an op init; compute_kernel_hw_startup does the full one). The
// same model as transpose_wh.h's older names.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void transpose_init(uint32_t icb, uint32_t call_line = __builtin_LINE()) {
  (void)icb, (void)call_line;
  ditmk::compute::init(DITMK_INIT_TRANSPOSE);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void transpose_tile(uint32_t icb, uint32_t itile, uint32_t idst) {
  ditmk::abi->transpose_wh_tile(icb, itile, idst);
}

}  // namespace ckernel
