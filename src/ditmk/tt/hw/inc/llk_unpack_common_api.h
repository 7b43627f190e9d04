#pragma once
// The LLK's unpacker-side data format reconfiguration: no effect, as api/compute/reconfig_data_format.h's
// (the emulator's unpacker reads each CB in its own format).
#include <stdint.h>

namespace ckernel {
// Whether a reconfiguration also sets the unpacker's face dimensions and strides.
enum class p_dim_stride_target { IGNORE, FACE_ROW_MAJOR };
}  // namespace ckernel

template <bool is_fp32_dest_acc_en, ckernel::p_dim_stride_target dim_stride_target, bool skip_int8 = false>
inline void llk_unpack_reconfig_data_format_srca(const uint32_t srca_new_operand) {
  (void)srca_new_operand;
}

template <bool is_fp32_dest_acc_en, ckernel::p_dim_stride_target dim_stride_target, bool skip_int8 = false>
inline void llk_unpack_reconfig_data_format_srca(const uint32_t srca_old_operand, const uint32_t srca_new_operand) {
  (void)srca_old_operand, (void)srca_new_operand;
}
