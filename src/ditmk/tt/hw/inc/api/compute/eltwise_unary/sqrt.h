#pragma once
// sqrt(x), in place on DST[idst], in fp32. sqrt_tile_init must have run before the first sqrt_tile.
// The template options of tt-metal's versions (approximation modes and the like) are accepted and
// do not change the result.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

template <auto... options>
ALWI void sqrt_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_SQRT);
}

template <auto... options>
ALWI void sqrt_tile(uint32_t idst, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC) {
  ditmk::compute::sfpu(DITMK_SFPU_SQRT, idst, vector_mode, "sqrt_tile");
}

}  // namespace ckernel
