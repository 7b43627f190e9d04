#pragma once
// The LLK's math init of a reduce, which ttnn's kernel_lib calls directly to switch back to a reduce
// mid-kernel: the reduce op init of api/compute/reduce.h (the op and dimension the next reduce_tile
// must match).
#include "api/compute/common.h"
#include "ditmk/compute.h"

template <ckernel::PoolType type, ckernel::ReduceDim dim, bool is_fp32_dest_acc_en, ckernel::MathFidelity math_fidelity>
inline void llk_math_reduce_init(const uint32_t operandA, const uint32_t operandB) {
  (void)operandA, (void)operandB;
  ditmk::compute::init(DITMK_INIT_REDUCE, uint32_t(type), uint32_t(dim));
}
