#pragma once
// -x, in place on DST[idst], in fp32. Integer DST tiles (negative_tile_int32) are not modelled.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

DITMK_SFPU_UNARY(negative, DITMK_SFPU_NEGATIVE)

}  // namespace ckernel
