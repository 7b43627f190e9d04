#pragma once
// rpow: base ** x for every value x of DST[idst], in place, in fp32; base_val holds the base's fp32
// bits.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

ALWI void rpow_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_RPOW); }

template <auto... options>
ALWI void rpow_tile(uint32_t idst, uint32_t base_val, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC) {
  ditmk::compute::sfpu_param(DITMK_SFPU_RPOW, idst, base_val, vector_mode, "rpow_tile");
}

}  // namespace ckernel
