#pragma once
// Integer subtract (and reverse subtract) of two DST tiles: not modelled, since the emulator's DST
// holds fp32 values; every call faults naming itself.
#include "api/compute/common.h"
#include "ditmk/compute.h"
#include "ditmk/data_format.h"

namespace ckernel {

template <DataFormat data_format>
ALWI void sub_int_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  (void)idst0, (void)idst1, (void)odst;
  ditmk::compute::integer_dst_call("sub_int_tile");
}

template <DataFormat data_format>
ALWI void rsub_int_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  (void)idst0, (void)idst1, (void)odst;
  ditmk::compute::integer_dst_call("rsub_int_tile");
}

ALWI void sub_int_tile_init() { ditmk::compute::integer_dst_call("sub_int_tile_init"); }
ALWI void rsub_int_tile_init() { ditmk::compute::integer_dst_call("rsub_int_tile_init"); }

}  // namespace ckernel
