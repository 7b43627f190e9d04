#pragma once
// sin, cos and tan of DST[idst], in place, in fp32 (radians). The inverse and hyperbolic functions
// 0.81.1 declares beside them are declared so kernels that name them compile; the emulator does not
// model them: each call faults naming itself (ditmk/not_modelled.h).
#include "api/compute/common.h"
#include "ditmk/compute.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

DITMK_SFPU_UNARY(sin, DITMK_SFPU_SIN)
DITMK_SFPU_UNARY(cos, DITMK_SFPU_COS)
DITMK_SFPU_UNARY(tan, DITMK_SFPU_TAN)

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void asin_tile_init() { ditmk::detail::not_modelled("asin_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void asin_tile(uint32_t idst) { ditmk::detail::not_modelled("asin_tile"); }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void acos_tile_init() { ditmk::detail::not_modelled("acos_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void acos_tile(uint32_t idst) { ditmk::detail::not_modelled("acos_tile"); }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void atan_tile_init() { ditmk::detail::not_modelled("atan_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void atan_tile(uint32_t idst) { ditmk::detail::not_modelled("atan_tile"); }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sinh_tile_init() { ditmk::detail::not_modelled("sinh_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sinh_tile(uint32_t idst) { ditmk::detail::not_modelled("sinh_tile"); }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void cosh_tile_init() { ditmk::detail::not_modelled("cosh_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void cosh_tile(uint32_t idst) { ditmk::detail::not_modelled("cosh_tile"); }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void asinh_tile_init() { ditmk::detail::not_modelled("asinh_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void asinh_tile(uint32_t idst) { ditmk::detail::not_modelled("asinh_tile"); }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void acosh_tile_init() { ditmk::detail::not_modelled("acosh_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void acosh_tile(uint32_t idst) { ditmk::detail::not_modelled("acosh_tile"); }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void atanh_tile_init() { ditmk::detail::not_modelled("atanh_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void atanh_tile(uint32_t idst) { ditmk::detail::not_modelled("atanh_tile"); }

}  // namespace ckernel
