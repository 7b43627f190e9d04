#pragma once
// DST[idst] op a scalar, in place in fp32, the scalar given as its fp32 bits: x + s, x - s, x * s,
// x / s and s - x. One init sets the SFPU up for all five. The int32 forms work on integer values in
// DST, which are not modelled: they fault naming themselves.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

ALWI void binop_with_scalar_tile_init() {
  for (uint32_t op = DITMK_SFPU_ADD_SCALAR; op <= DITMK_SFPU_RSUB_SCALAR; ++op) {
    ditmk::compute::init(DITMK_INIT_SFPU, op);
  }
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_unary_tile(uint32_t idst, uint32_t param1) {
  ditmk::compute::sfpu_param(DITMK_SFPU_ADD_SCALAR, idst, param1, VectorMode::RC, "add_unary_tile");
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_unary_tile(uint32_t idst, uint32_t param1) {
  ditmk::compute::sfpu_param(DITMK_SFPU_SUB_SCALAR, idst, param1, VectorMode::RC, "sub_unary_tile");
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_unary_tile(uint32_t idst, uint32_t param1) {
  ditmk::compute::sfpu_param(DITMK_SFPU_MUL_SCALAR, idst, param1, VectorMode::RC, "mul_unary_tile");
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void div_unary_tile(uint32_t idst, uint32_t param1) {
  ditmk::compute::sfpu_param(DITMK_SFPU_DIV_SCALAR, idst, param1, VectorMode::RC, "div_unary_tile");
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rsub_unary_tile(uint32_t idst, uint32_t param1) {
  ditmk::compute::sfpu_param(DITMK_SFPU_RSUB_SCALAR, idst, param1, VectorMode::RC, "rsub_unary_tile");
}

ALWI void add_unary_tile_int32(uint32_t idst, uint32_t param1) {
  (void)idst, (void)param1;
  ditmk::compute::integer_dst_call("add_unary_tile_int32");
}

ALWI void sub_unary_tile_int32(uint32_t idst, uint32_t param1) {
  (void)idst, (void)param1;
  ditmk::compute::integer_dst_call("sub_unary_tile_int32");
}

}  // namespace ckernel
