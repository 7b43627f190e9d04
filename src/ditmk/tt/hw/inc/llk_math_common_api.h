#pragma once
// The LLK's math-side data format reconfiguration: no effect, as api/compute/reconfig_data_format.h's
// (the emulator's math engine reads each CB in its own format).
#include <stdint.h>

template <bool is_fp32_dest_acc_en, bool skip_int8 = false>
inline void llk_math_reconfig_data_format_srca(const uint32_t srca_new_operand) {
  (void)srca_new_operand;
}

template <bool is_fp32_dest_acc_en, bool skip_int8 = false>
inline void llk_math_reconfig_data_format_srca(const uint32_t srca_old_operand, const uint32_t srca_new_operand) {
  (void)srca_old_operand, (void)srca_new_operand;
}
