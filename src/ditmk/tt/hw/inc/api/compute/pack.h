#pragma once
// pack_tile: DST[ifrom_dst] into the next tile of the CB's reservation, in the CB's own format with
// its rounding. The packer's format configuration is not modelled (each CB packs in its format), so
// the reconfig calls do nothing; L1 accumulation and packer ReLU would change the data and fault.
#include "api/compute/common_globals.h"

namespace ckernel {

// out_of_order_output: output_tile_index places the tile in the reservation; the emulator packs a
// reservation in order, so the index must be the next tile's.
template <bool out_of_order_output = false>
ALWI void pack_tile(uint32_t ifrom_dst, uint32_t icb, uint32_t output_tile_index = 0) {
  ditmk::abi->pack_tile(ifrom_dst, icb, output_tile_index, out_of_order_output ? 1 : 0);
}

// ntiles consecutive DST tiles from ifrom_dst, each packed as pack_tile packs it (the matmul
// packer's block form).
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_block(uint32_t ifrom_dst, uint32_t icb, uint32_t ntiles) {
  for (uint32_t i = 0; i < ntiles; ++i) pack_tile(ifrom_dst + i, icb);
}

template <bool is_tile_dim_reconfig_en = false>
ALWI void pack_reconfig_data_format(const uint32_t new_operand) {
  (void)new_operand;
}

template <bool is_tile_dim_reconfig_en = false>
ALWI void pack_reconfig_data_format(const uint32_t old_operand, const uint32_t new_operand) {
  (void)old_operand, (void)new_operand;
}

ALWI void pack_reconfig_l1_acc(const uint32_t l1_acc_en) {
  if (l1_acc_en) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                         "pack_reconfig_l1_acc(1): packing into L1 with accumulation is not modelled");
  }
}

ALWI void pack_relu_config(const uint32_t config) {
  if (config) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "pack_relu_config: the packer's ReLU is not modelled");
  }
}

// 0.81.1's form: ReluConfig::none() has no effect, any other mode faults.
ALWI void pack_relu_config(const ReluConfig& config) {
  if (config.get_mode() != ReluType::NO_RELU) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "pack_relu_config: the packer's ReLU is not modelled");
  }
}

}  // namespace ckernel
