#pragma once
// 1 / sqrt(x), in place on DST[idst], in fp32. rsqrt_tile_init must have run before the first
// rsqrt_tile.
// The template options of tt-metal's versions (approximation modes and the like) are accepted and
// do not change the result.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

// 0.81.1's option of the reciprocal square root: Fast skips the check that makes a negative input
// NaN. The emulator computes 1 / sqrt(x) in fp32 (NaN below zero) either way.
enum class RsqrtMode { Default, Fast };

template <auto... options>
ALWI void rsqrt_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_RSQRT);
}

template <auto... options>
ALWI void rsqrt_tile(uint32_t idst, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC) {
  ditmk::compute::sfpu(DITMK_SFPU_RSQRT, idst, vector_mode, "rsqrt_tile");
}

}  // namespace ckernel
