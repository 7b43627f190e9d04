#pragma once
// Trigonometric and hyperbolic SFPU ops, declared as 0.81.1 declares them so kernels that name them
// compile; the emulator does not model them yet: each call faults naming itself (ditmk/not_modelled.h).
#include "api/compute/common.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

ALWI void sin_tile_init() { ditmk::detail::not_modelled("sin_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sin_tile(uint32_t idst) { ditmk::detail::not_modelled("sin_tile"); }

ALWI void cos_tile_init() { ditmk::detail::not_modelled("cos_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void cos_tile(uint32_t idst) { ditmk::detail::not_modelled("cos_tile"); }

ALWI void tan_tile_init() { ditmk::detail::not_modelled("tan_tile_init"); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tan_tile(uint32_t idst) { ditmk::detail::not_modelled("tan_tile"); }

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
