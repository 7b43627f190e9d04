#pragma once
// log(1 + x), in place on DST[idst] in fp32, after its init; the fast approximate mode computes the
// same exact function here.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

template <bool fast_and_approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void log1p_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_LOG1P);
}

template <bool fast_and_approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void log1p_tile(uint32_t idst) {
  ditmk::compute::sfpu(DITMK_SFPU_LOG1P, idst, VectorMode::RC, "log1p_tile");
}

}  // namespace ckernel
