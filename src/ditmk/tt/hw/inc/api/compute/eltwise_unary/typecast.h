#pragma once
// typecast_tile<IN_DTYPE, OUT_DTYPE>: DST[idst] converted from one DataFormat (tt-metal's numbers) to
// another. Between float formats the emulator's fp32 DST rounds to the output's precision (bf16: to
// nearest even) and the packer does the rest; casts from or to integer formats are not modelled and
// fault naming both formats.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE>
ALWI void typecast_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_TYPECAST);
}

template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE, auto... options>
ALWI void typecast_tile(uint32_t idst) {
  static_assert(IN_DTYPE < 256 && OUT_DTYPE < 256, "a DataFormat value");
  ditmk::compute::sfpu_param(DITMK_SFPU_TYPECAST, idst, (IN_DTYPE << 8) | OUT_DTYPE, VectorMode::RC,
                             "typecast_tile");
}

}  // namespace ckernel
