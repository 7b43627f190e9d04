#pragma once
// Integer multiply of two DST tiles, declared so kernels that name them compile; the emulator does not
// model them yet: each call faults naming itself (ditmk/not_modelled.h).
#include "api/compute/common.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

template <DataFormat data_format>
ALWI void mul_int_tile_init() { ditmk::detail::not_modelled("mul_int_tile_init"); }
template <DataFormat data_format>
ALWI void mul_int_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) { ditmk::detail::not_modelled("mul_int_tile"); }

}  // namespace ckernel
