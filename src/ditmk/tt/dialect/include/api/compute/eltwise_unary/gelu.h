#pragma once
// GELU, in place on DST[idst], in fp32: the tanh approximation whichever mode the template options
// of tt-metal's versions ask for. gelu_tile_init must have run before the first gelu_tile.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

template <auto... options>
ALWI void gelu_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_GELU);
}

template <auto... options>
ALWI void gelu_tile(uint32_t idst, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC) {
  ditmk::compute::sfpu(DITMK_SFPU_GELU, idst, vector_mode, "gelu_tile");
}

}  // namespace ckernel
