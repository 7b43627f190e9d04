#pragma once
// The LLK's unpacker init for a binary: the emulator's unpacker is configured by the math init of
// the same op (llk_math_binary_api.h), so this one has no effect of its own.
#include "api/compute/common.h"

template <ckernel::BroadcastType BType = ckernel::BroadcastType::NONE>
inline void llk_unpack_AB_init(const uint32_t operandA, const uint32_t operandB) {
  (void)operandA, (void)operandB;
}
