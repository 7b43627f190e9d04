#pragma once
// silu(x) = x * sigmoid(x), in place on DST[idst], in fp32. silu_tile_init must have run before the
// first silu_tile.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

template <auto... options>
ALWI void silu_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_SILU);
}

template <auto... options>
ALWI void silu_tile(uint32_t idst, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC) {
  ditmk::compute::sfpu(DITMK_SFPU_SILU, idst, vector_mode, "silu_tile");
}

}  // namespace ckernel
