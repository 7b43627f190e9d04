#pragma once
// rdiv: value / x for every value x of DST[idst], in place, in fp32; value holds the dividend's fp32
// bits. The rounding-mode template option (floor, trunc) is not modelled and faults.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

ALWI void rdiv_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_RDIV); }

template <RoundingMode rounding_mode = RoundingMode::None, auto... options>
ALWI void rdiv_tile(uint32_t dst_index, uint32_t value, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC) {
  if constexpr (rounding_mode != RoundingMode::None) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "rdiv_tile: a rounding mode other than None is not modelled");
  }
  ditmk::compute::sfpu_param(DITMK_SFPU_RDIV, dst_index, value, vector_mode, "rdiv_tile");
}

}  // namespace ckernel
