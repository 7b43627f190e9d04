#pragma once
// -x, in place on DST[idst], in fp32. Integer DST tiles are not modelled: negative_tile_int32 faults
// naming itself.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

DITMK_SFPU_UNARY(negative, DITMK_SFPU_NEGATIVE)

ALWI void negative_tile_int32(uint32_t idst) {
  (void)idst;
  ditmk::compute::integer_dst_call("negative_tile_int32");
}

}  // namespace ckernel
