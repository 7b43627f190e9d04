#pragma once
// The LLK's unpacker init for a reduce: configured here by the math init (llk_math_reduce_api.h), so
// no effect of its own.
#include "api/compute/common.h"

template <ckernel::PoolType pool_type, ckernel::ReduceDim reduce_dim>
inline void llk_unpack_AB_reduce_init(const uint32_t operandA, const uint32_t operandB) {
  (void)operandA, (void)operandB;
}
