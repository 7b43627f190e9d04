#pragma once
// Circular buffer ids as tt-metal names them: tt::CBIndex::c_0 .. c_63 (Blackhole has 64), and the
// older tt::CB names of the first 32.
#include <stdint.h>

namespace tt {

// clang-format off
enum CBIndex : uint8_t {
  c_0, c_1, c_2, c_3, c_4, c_5, c_6, c_7, c_8, c_9, c_10, c_11, c_12, c_13, c_14, c_15,
  c_16, c_17, c_18, c_19, c_20, c_21, c_22, c_23, c_24, c_25, c_26, c_27, c_28, c_29, c_30, c_31,
  c_32, c_33, c_34, c_35, c_36, c_37, c_38, c_39, c_40, c_41, c_42, c_43, c_44, c_45, c_46, c_47,
  c_48, c_49, c_50, c_51, c_52, c_53, c_54, c_55, c_56, c_57, c_58, c_59, c_60, c_61, c_62, c_63,
  SIZE
};

enum CB : uint8_t {
  c_in0, c_in1, c_in2, c_in3, c_in4, c_in5, c_in6, c_in7,
  dataflow0, dataflow1, dataflow2, dataflow3, dataflow4, dataflow5, dataflow6, dataflow7,
  c_out0, c_out1, c_out2, c_out3, c_out4, c_out5, c_out6, c_out7,
  c_intermed0, c_intermed1, c_intermed2, c_intermed3, c_intermed4, c_intermed5, c_intermed6, c_intermed7
};

// clang-format on
}  // namespace tt
