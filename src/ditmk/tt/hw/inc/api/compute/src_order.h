#pragma once
// How an op's two input CBs map onto the unpacker's source registers: a matmul unpacks in0 into
// SrcB and in1 into SrcA, so its hardware start and format reconfigurations name the order
// (SrcOrder::Reverse) while the kernel passes (in0, in1) as written. The emulator unpacks each CB
// in its own format, so the order changes nothing here; it is declared so kernels compile as on the
// chip.
#include <stdint.h>

namespace ckernel {

enum class SrcOrder : uint8_t { Regular = 0, Reverse = 1 };

}  // namespace ckernel
