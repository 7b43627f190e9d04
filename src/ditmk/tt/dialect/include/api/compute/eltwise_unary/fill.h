#pragma once
// A DST tile filled with one value, declared so kernels that name them compile; the emulator does not
// model them yet: each call faults naming itself (ditmk/not_modelled.h).
#include "api/compute/common.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

ALWI void fill_tile_init() { ditmk::detail::not_modelled("fill_tile_init"); }
ALWI void fill_tile(uint32_t idst, float param0) { ditmk::detail::not_modelled("fill_tile"); }
template <DataFormat DATA_FORMAT>
ALWI void fill_tile_int(uint32_t idst, uint32_t param0) { ditmk::detail::not_modelled("fill_tile_int"); }
ALWI void fill_tile_bitcast(uint32_t idst, uint32_t param0) { ditmk::detail::not_modelled("fill_tile_bitcast"); }

}  // namespace ckernel
