#pragma once
// base ** x for a scalar base, declared so kernels that name them compile; the emulator does not
// model them yet: each call faults naming itself (ditmk/not_modelled.h).
#include "api/compute/common.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

ALWI void rpow_tile_init() { ditmk::detail::not_modelled("rpow_tile_init"); }
template <auto... options>
ALWI void rpow_tile(uint32_t, uint32_t, VectorMode = VectorMode::RC) { ditmk::detail::not_modelled("rpow_tile"); }

}  // namespace ckernel
