#pragma once
// exp(x), in place on DST[idst], in fp32. exp_tile_init must have run before the first exp_tile.
// The template options of tt-metal's versions (approximation, clamping) are accepted and do not
// change the result; an input scale other than 1.0 is not modelled and faults.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

template <auto... options>
ALWI void exp_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_EXP);
}

template <auto... options>
ALWI void exp_tile(uint32_t idst, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC, uint16_t scale = 0x3F80) {
  if (scale != 0x3F80) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "exp_tile: an input scale other than 1.0 is not modelled");
  }
  ditmk::compute::sfpu(DITMK_SFPU_EXP, idst, vector_mode, "exp_tile");
}

}  // namespace ckernel
