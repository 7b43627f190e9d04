#pragma once
// Unpacker format reconfiguration. The emulator unpacks every CB in its own format, so these calls
// have nothing to do; they exist so kernels written for the chip compile unchanged. The two-CB forms
// take tt-metal 0.81.1's template arg (SrcOrder, how (icb0, icb1) map onto SrcA / SrcB) or the
// older trees' (to_from_int8, is_tile_dim_reconfig_en): any template args are accepted.
#include "api/compute/common_globals.h"
#include "api/compute/src_order.h"
// the LLK calls 0.81.1's header brings in, which kernels (ttnn's kernel_lib) call directly
#include "llk_math_common_api.h"
#include "llk_unpack_common_api.h"

namespace ckernel {

template <auto... options>
ALWI void reconfig_data_format(const uint32_t srca_new_operand, const uint32_t srcb_new_operand) {
  (void)srca_new_operand, (void)srcb_new_operand;
}

template <auto... options>
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
