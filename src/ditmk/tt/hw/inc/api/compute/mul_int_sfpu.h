#pragma once
// Integer multiply of two DST tiles: not modelled, since the emulator's DST holds fp32 values; both
// calls fault naming themselves.
#include "api/compute/common.h"
#include "ditmk/compute.h"
#include "ditmk/data_format.h"

namespace ckernel {

template <DataFormat data_format>
ALWI void mul_int_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  (void)idst0, (void)idst1, (void)odst;
  ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                       "mul_int_tile: integer values in DST are not modelled (the emulator's DST holds fp32 values)");
}

template <DataFormat data_format>
ALWI void mul_int_tile_init() {
  ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                       "mul_int_tile_init: integer values in DST are not modelled (the emulator's DST holds fp32 "
                       "values)");
}

}  // namespace ckernel
