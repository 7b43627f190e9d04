#pragma once
// y = x, in place on DST[idst] (the SFPU loads each value and stores it back), after its init. The
// uint32 form works on integer values in DST, which are not modelled: it faults naming itself.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

ALWI void identity_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_IDENTITY); }

ALWI void identity_tile(uint32_t idst) {
  ditmk::compute::sfpu(DITMK_SFPU_IDENTITY, idst, VectorMode::RC, "identity_tile");
}

ALWI void identity_tile_uint32(uint32_t idst) {
  (void)idst;
  ditmk::compute::integer_dst_call("identity_tile_uint32");
}

}  // namespace ckernel
