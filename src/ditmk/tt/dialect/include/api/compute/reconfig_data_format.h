#pragma once
// Unpacker format reconfiguration. The emulator unpacks every CB in its own format, so these calls
// have nothing to do; they exist so kernels written for the chip compile unchanged.
#include "api/compute/common_globals.h"

namespace ckernel {

template <bool to_from_int8 = false, bool is_tile_dim_reconfig_en = false>
ALWI void reconfig_data_format(const uint32_t srca_new_operand, const uint32_t srcb_new_operand) {
  (void)srca_new_operand, (void)srcb_new_operand;
}

template <bool to_from_int8 = false, bool is_tile_dim_reconfig_en = false>
ALWI void reconfig_data_format(const uint32_t srca_old_operand, const uint32_t srca_new_operand,
                               const uint32_t srcb_old_operand, const uint32_t srcb_new_operand) {
  (void)srca_old_operand, (void)srca_new_operand, (void)srcb_old_operand, (void)srcb_new_operand;
}

template <bool to_from_int8 = false, bool is_tile_dim_reconfig_en = false>
ALWI void reconfig_data_format_srca(const uint32_t srca_new_operand) {
  (void)srca_new_operand;
}

template <bool to_from_int8 = false, bool is_tile_dim_reconfig_en = false>
ALWI void reconfig_data_format_srca(const uint32_t srca_old_operand, const uint32_t srca_new_operand) {
  (void)srca_old_operand, (void)srca_new_operand;
}

template <bool to_from_int8 = false, bool is_tile_dim_reconfig_en = false>
ALWI void reconfig_data_format_srcb(const uint32_t srcb_new_operand) {
  (void)srcb_new_operand;
}

template <bool to_from_int8 = false, bool is_tile_dim_reconfig_en = false>
ALWI void reconfig_data_format_srcb(const uint32_t srcb_old_operand, const uint32_t srcb_new_operand) {
  (void)srcb_old_operand, (void)srcb_new_operand;
}

// The older names.
ALWI void unpack_reconfig_data_format(const uint32_t srca_new_operand, const uint32_t srcb_new_operand) {
  reconfig_data_format(srca_new_operand, srcb_new_operand);
}
ALWI void unpack_reconfig_data_format_srca(const uint32_t srca_new_operand) {
  reconfig_data_format_srca(srca_new_operand);
}
ALWI void unpack_reconfig_data_format_srcb(const uint32_t srcb_new_operand) {
  reconfig_data_format_srcb(srcb_new_operand);
}

}  // namespace ckernel
