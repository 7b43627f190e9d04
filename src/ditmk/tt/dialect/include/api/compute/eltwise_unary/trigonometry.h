#pragma once
// sin, cos and tan of DST[idst], in place, in fp32 (radians). The inverse and hyperbolic functions
// tt-metal declares beside them are not modelled.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

DITMK_SFPU_UNARY(sin, DITMK_SFPU_SIN)
DITMK_SFPU_UNARY(cos, DITMK_SFPU_COS)
DITMK_SFPU_UNARY(tan, DITMK_SFPU_TAN)

}  // namespace ckernel
