#pragma once
// The one full hardware init at a compute kernel's start (unpacker, math and packer configured);
// the op inits that follow pick the op. SrcOrder says how the first op's CBs map onto the source
// registers (a matmul's run reversed); the emulator has nothing to configure by it.
#include "api/compute/common.h"
#include "api/compute/src_order.h"
#include "ditmk/compute.h"

namespace ckernel {

template <SrcOrder src_order = SrcOrder::Regular>
ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t icb1, uint32_t ocb) {
  (void)icb0, (void)icb1, (void)ocb;
  ditmk::compute::init(DITMK_INIT_HW);
}

ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t ocb) {
  compute_kernel_hw_startup(icb0, icb0, ocb);
}

}  // namespace ckernel
