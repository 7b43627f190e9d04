#pragma once
// tt-metal's catch-all compute header: the common calls, the SFPU ops it declares itself (sigmoid,
// tanh, log, abs, square, power, power_iterative, sign, silu), and the other modelled SFPU ops.
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/sfpu_split_includes.h"
#include "ditmk/compute.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

DITMK_SFPU_UNARY(tanh, DITMK_SFPU_TANH)
DITMK_SFPU_UNARY(log, DITMK_SFPU_LOG)
DITMK_SFPU_UNARY(abs, DITMK_SFPU_ABS)
DITMK_SFPU_UNARY(square, DITMK_SFPU_SQUARE)

// sigmoid_tile takes its vector mode as a template argument.
template <auto... options>
ALWI void sigmoid_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_SIGMOID);
}

template <auto vec_mode = VectorMode::RC, auto... options>
ALWI void sigmoid_tile(uint32_t idst) {
  ditmk::compute::sfpu(DITMK_SFPU_SIGMOID, idst, ditmk::compute::vector_mode_of<vec_mode>(), "sigmoid_tile");
}

// x ** exponent; param0 holds the exponent's fp32 bits.
ALWI void power_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_POWER); }

template <auto... options>
ALWI void power_tile(uint32_t idst, uint32_t param0) {
  ditmk::compute::sfpu_param(DITMK_SFPU_POWER, idst, param0, VectorMode::RC, "power_tile");
}

// sign(x): -1.0, 0.0 or 1.0.
ALWI void sign_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_SIGN); }
ALWI void sign_tile(uint32_t idst) { ditmk::compute::sfpu(DITMK_SFPU_SIGN, idst, VectorMode::RC, "sign_tile"); }

// x ** n by repeated multiplication, for a non-negative integer n (param0, the integer itself).
ALWI void power_iterative_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_POWER_ITERATIVE); }
ALWI void power_iterative_tile(uint32_t idst, uint32_t param0) {
  ditmk::compute::sfpu_param(DITMK_SFPU_POWER_ITERATIVE, idst, param0, VectorMode::RC, "power_iterative_tile");
}

// The SFPU's reduce of a tile within DST: not modelled (the FPU reduces of api/compute/reduce.h
// are); both calls fault naming themselves.
template <PoolType pool_type, DataFormat format, ReduceDim reduce_dim = ReduceDim::REDUCE_COL,
          bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sfpu_reduce(uint32_t idst, uint32_t ct_dim = 1, uint32_t rt_dim = 1) {
  (void)idst, (void)ct_dim, (void)rt_dim;
  ditmk::detail::not_modelled("sfpu_reduce");
}

template <PoolType pool_type, DataFormat format, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sfpu_reduce_init() {
  ditmk::detail::not_modelled("sfpu_reduce_init");
}

}  // namespace ckernel
