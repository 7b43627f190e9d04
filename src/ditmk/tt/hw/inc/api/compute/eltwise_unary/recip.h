#pragma once
// 1 / x, in place on DST[idst], in fp32. recip_tile_init must have run before the first recip_tile.
// The template options of tt-metal's versions (approximation modes and the like) are accepted and
// do not change the result.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

// 0.81.1's typed options of the reciprocal (DST precision, approximation), which kernels name as
// template args (softmax: recip_tile<ReciprocalDestAcc::FP32, ReciprocalApproxMode::Precise>).
// The emulator computes 1 / x in fp32 whichever is named.
enum class ReciprocalDestAcc { BF16, FP32 };
enum class ReciprocalApproxMode { Default, Precise, Approximate };

template <auto... options>
ALWI void recip_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_RECIP);
}

template <auto... options>
ALWI void recip_tile(uint32_t idst, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC) {
  ditmk::compute::sfpu(DITMK_SFPU_RECIP, idst, vector_mode, "recip_tile");
}

}  // namespace ckernel
