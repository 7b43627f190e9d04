#pragma once
// Masking in place on DST[idst_data]: each value where the mask's value is 0 becomes 0 (mask_tile) or
// +inf (mask_posinf_tile). The chip's SFPU reads the mask from the DST tile after the data's
// (idst_data + 1) whatever idst2_mask says, so here a different idst2_mask faults, naming the call,
// rather than masking with another tile than the chip would. An Int32 mask_tile works on integer
// values in DST, which are not modelled: it faults naming itself.
#include "api/compute/common.h"
#include "ditmk/compute.h"
#include "ditmk/data_format.h"

namespace ckernel {

ALWI void mask_tile_init() {
  ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_MASK);
  ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_MASK_POSINF);
}

ALWI void mask_tile(uint32_t idst_data, uint32_t idst2_mask, DataFormat data_format = DataFormat::Float16_b) {
  if (data_format == DataFormat::Int32) ditmk::compute::integer_dst_call("mask_tile");
  if (data_format != DataFormat::Float16_b && data_format != DataFormat::Float16) return;  // the chip does nothing
  ditmk::compute::sfpu_mask(DITMK_SFPU_BINARY_MASK, idst_data, idst2_mask, "mask_tile");
}

ALWI void mask_posinf_tile(uint32_t idst_data, uint32_t idst2_mask) {
  ditmk::compute::sfpu_mask(DITMK_SFPU_BINARY_MASK_POSINF, idst_data, idst2_mask, "mask_posinf_tile");
}

}  // namespace ckernel
