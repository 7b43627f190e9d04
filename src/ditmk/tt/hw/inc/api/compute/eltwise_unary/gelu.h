#pragma once
// GELU, in place on DST[idst], in fp32. gelu_tile_init must have run before the first gelu_tile,
// with the same fast_and_approx. fast_and_approx (tt-metal's default) computes the tanh form, which
// the chip approximates; false computes the erf form x * Phi(x), which the chip evaluates with a
// polynomial. The other template options do not change the result.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

template <bool fast_and_approx = true, auto... options>
ALWI void gelu_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, fast_and_approx ? DITMK_SFPU_GELU : DITMK_SFPU_GELU_ERF);
}

template <bool fast_and_approx = true, auto... options>
ALWI void gelu_tile(uint32_t idst, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC) {
  ditmk::compute::sfpu(fast_and_approx ? DITMK_SFPU_GELU : DITMK_SFPU_GELU_ERF, idst, vector_mode, "gelu_tile");
}

}  // namespace ckernel
