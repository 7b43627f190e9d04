#pragma once
// value / x for a scalar value, declared so kernels that name them compile; the emulator does not
// model them yet: each call faults naming itself (ditmk/not_modelled.h).
#include "api/compute/common.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

ALWI void rdiv_tile_init() { ditmk::detail::not_modelled("rdiv_tile_init"); }
template <RoundingMode rounding_mode = RoundingMode::None, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rdiv_tile(uint32_t dst_index, uint32_t value, VectorMode vector_mode = VectorMode::RC) { ditmk::detail::not_modelled("rdiv_tile"); }

}  // namespace ckernel
