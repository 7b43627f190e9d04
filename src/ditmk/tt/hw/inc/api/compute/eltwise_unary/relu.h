#pragma once
// relu(x) = max(x, 0) and leaky relu (x, or slope * x below 0), in place on DST[idst], in fp32.
// The bounded forms (relu_min_tile, relu_max_tile) are not modelled.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

DITMK_SFPU_UNARY(relu, DITMK_SFPU_RELU)

ALWI void leaky_relu_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_LEAKY_RELU); }

// slope: the fp32 bits of the factor below zero
ALWI void leaky_relu_tile(uint32_t idst, uint32_t slope = 0) {
  ditmk::compute::sfpu_param(DITMK_SFPU_LEAKY_RELU, idst, slope, VectorMode::RC, "leaky_relu_tile");
}

}  // namespace ckernel
