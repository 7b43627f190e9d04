#pragma once
// value / x for a scalar value, declared so kernels that name them compile; the emulator does not
// model them yet: each call faults naming itself (ditmk/not_modelled.h).
#include "api/compute/common.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

ALWI void rdiv_tile_init() { ditmk::detail::not_modelled("rdiv_tile_init"); }
template <RoundingMode rounding_mode = RoundingMode::None, auto... options>
ALWI void rdiv_tile(uint32_t, uint32_t, VectorMode = VectorMode::RC) { ditmk::detail::not_modelled("rdiv_tile"); }

}  // namespace ckernel
