#pragma once
// Integer add of two DST tiles: not modelled, since the emulator's DST holds fp32 values; both calls
// fault naming themselves.
#include "api/compute/common.h"
#include "ditmk/compute.h"
#include "ditmk/data_format.h"

namespace ckernel {

template <DataFormat data_format>
ALWI void add_int_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  (void)idst0, (void)idst1, (void)odst;
  ditmk::compute::integer_dst_call("add_int_tile");
}

ALWI void add_int_tile_init() { ditmk::compute::integer_dst_call("add_int_tile_init"); }

}  // namespace ckernel
