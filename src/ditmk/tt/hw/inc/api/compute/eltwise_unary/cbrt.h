#pragma once
// The cube root, in place on DST[idst] in fp32, after its init.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

ALWI void cbrt_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_CBRT); }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void cbrt_tile(uint32_t idst) {
  ditmk::compute::sfpu(DITMK_SFPU_CBRT, idst, VectorMode::RC, "cbrt_tile");
}

}  // namespace ckernel
