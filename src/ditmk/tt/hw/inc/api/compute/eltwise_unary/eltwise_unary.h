#pragma once
// The full init of a unary kernel: the hardware configured and copy_tile ready, for SFPU ops that
// work on tiles copied into DST.
#include "api/compute/common.h"
#include "api/compute/tile_move_copy.h"  // as the chip's header does: kernels that include only this one call copy_init
#include "ditmk/compute.h"

namespace ckernel {

ALWI void unary_op_init_common(uint32_t icb, uint32_t ocb = 16) {
  (void)icb, (void)ocb;
  ditmk::compute::init(DITMK_INIT_HW);
  ditmk::compute::init(DITMK_INIT_COPY, 0);
}

ALWI void init_sfpu(uint32_t icb, uint32_t ocb) { unary_op_init_common(icb, ocb); }

}  // namespace ckernel
