#pragma once
// base ** x for a scalar base, declared so kernels that name them compile; the emulator does not
// model them yet: each call faults naming itself (ditmk/not_modelled.h).
#include "api/compute/common.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

ALWI void rpow_tile_init() { ditmk::detail::not_modelled("rpow_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rpow_tile(uint32_t idst, uint32_t base_val, VectorMode vector_mode = VectorMode::RC) { ditmk::detail::not_modelled("rpow_tile"); }

}  // namespace ckernel
