#pragma once
// Every value of DST[idst] set to one constant, given as a float or as its fp32 bits. Integer fills
// (fill_tile_int) are not modelled: the emulator's DST holds fp32 values.
#include "api/compute/common.h"
#include "ditmk/compute.h"
#include "ditmk/data_format.h"

namespace ckernel {

ALWI void fill_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU, DITMK_SFPU_FILL); }

ALWI void fill_tile_bitcast(uint32_t idst, uint32_t param0) {
  ditmk::compute::sfpu_param(DITMK_SFPU_FILL, idst, param0, VectorMode::RC, "fill_tile_bitcast");
}

ALWI void fill_tile(uint32_t idst, float param0) {
  ditmk::compute::sfpu_param(DITMK_SFPU_FILL, idst, ditmk::compute::float_bits(param0), VectorMode::RC, "fill_tile");
}

template <DataFormat data_format>
ALWI void fill_tile_int(uint32_t idst, uint32_t param0) {
  (void)idst, (void)param0;
  ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                       "fill_tile_int: integer values in DST are not modelled (the emulator's DST holds fp32 values)");
}

}  // namespace ckernel
