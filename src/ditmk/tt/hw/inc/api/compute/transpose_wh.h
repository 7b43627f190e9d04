#pragma once
// transpose_wh_tile: a CB tile into DST[idst] transposed (rows become columns), as the unpacker's
// transpose does. transpose_wh_init (full) or transpose_wh_init_short must be the last op init.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

ALWI void transpose_wh_init(uint32_t icb, uint32_t ocb) {
  (void)icb, (void)ocb;
  ditmk::compute::init(DITMK_INIT_HW);
  ditmk::compute::init(DITMK_INIT_TRANSPOSE);
}

ALWI void transpose_wh_init_short(uint32_t icb) {
  (void)icb;
  ditmk::compute::init(DITMK_INIT_TRANSPOSE);
}

ALWI void transpose_wh_tile(uint32_t icb, uint32_t itile, uint32_t idst) {
  ditmk::abi->transpose_wh_tile(icb, itile, idst);
}

}  // namespace ckernel
