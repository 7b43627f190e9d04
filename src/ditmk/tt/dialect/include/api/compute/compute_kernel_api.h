#pragma once
// tt-metal's catch-all compute header: the common calls, the SFPU ops it declares itself (sigmoid,
// tanh, log, abs, square, power, silu), and the other modelled SFPU ops.
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/sfpu_split_includes.h"
#include "ditmk/compute.h"

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

}  // namespace ckernel
