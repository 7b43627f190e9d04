#pragma once
// Comparisons in place on DST[idst], in fp32, each after its own init: with zero (gtz_tile: 1.0 where
// x > 0, else 0.0, ...) and with a scalar given as its fp32 bits (unary_gt_tile(idst, bits): 1.0
// where x > the scalar). The int32, uint16 and uint32 forms compare integer values in DST, which are
// not modelled: they fault naming themselves.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

#define DITMK_COMPARE_SCALAR(name, op)                                                          \
  ALWI void name##_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, op); }                   \
  ALWI void name##_tile(uint32_t idst, uint32_t param0) {                                       \
    ditmk::compute::sfpu_param(op, idst, param0, VectorMode::RC, #name "_tile");                \
  }
#define DITMK_COMPARE_ZERO(name, op)                                                            \
  ALWI void name##_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, op); }                   \
  ALWI void name##_tile(uint32_t idst) { ditmk::compute::sfpu(op, idst, VectorMode::RC, #name "_tile"); }
#define DITMK_COMPARE_INTEGER(name, ...)                                                        \
  ALWI void name(uint32_t idst __VA_ARGS__) {                                                   \
    (void)idst;                                                                                 \
    ditmk::compute::integer_dst_call(#name);                                                    \
  }

DITMK_COMPARE_SCALAR(unary_ne, DITMK_SFPU_UNARY_NE)
DITMK_COMPARE_SCALAR(unary_eq, DITMK_SFPU_UNARY_EQ)
DITMK_COMPARE_SCALAR(unary_gt, DITMK_SFPU_UNARY_GT)
DITMK_COMPARE_SCALAR(unary_ge, DITMK_SFPU_UNARY_GE)
DITMK_COMPARE_SCALAR(unary_lt, DITMK_SFPU_UNARY_LT)
DITMK_COMPARE_SCALAR(unary_le, DITMK_SFPU_UNARY_LE)
DITMK_COMPARE_ZERO(gtz, DITMK_SFPU_GTZ)
DITMK_COMPARE_ZERO(nez, DITMK_SFPU_NEZ)
DITMK_COMPARE_ZERO(gez, DITMK_SFPU_GEZ)
DITMK_COMPARE_ZERO(ltz, DITMK_SFPU_LTZ)
DITMK_COMPARE_ZERO(eqz, DITMK_SFPU_EQZ)
DITMK_COMPARE_ZERO(lez, DITMK_SFPU_LEZ)
DITMK_COMPARE_INTEGER(unary_ne_tile_int32, , uint32_t param0)
DITMK_COMPARE_INTEGER(unary_eq_tile_int32, , uint32_t param0)
DITMK_COMPARE_INTEGER(unary_gt_tile_int32, , uint32_t param0)
DITMK_COMPARE_INTEGER(unary_ge_tile_int32, , uint32_t param0)
DITMK_COMPARE_INTEGER(unary_lt_tile_int32, , uint32_t param0)
DITMK_COMPARE_INTEGER(unary_le_tile_int32, , uint32_t param0)
DITMK_COMPARE_INTEGER(gtz_tile_int32)
DITMK_COMPARE_INTEGER(nez_tile_int32)
DITMK_COMPARE_INTEGER(gez_tile_int32)
DITMK_COMPARE_INTEGER(ltz_tile_int32)
DITMK_COMPARE_INTEGER(eqz_tile_int32)
DITMK_COMPARE_INTEGER(lez_tile_int32)
DITMK_COMPARE_INTEGER(eqz_tile_uint16)
DITMK_COMPARE_INTEGER(eqz_tile_uint32)
DITMK_COMPARE_INTEGER(nez_tile_uint16)
DITMK_COMPARE_INTEGER(nez_tile_uint32)

#undef DITMK_COMPARE_INTEGER
#undef DITMK_COMPARE_ZERO
#undef DITMK_COMPARE_SCALAR

}  // namespace ckernel
