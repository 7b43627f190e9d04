#pragma once
// The LLK's math init of an element-wise binary, which ttnn's kernel_lib calls directly for its
// broadcast forms (the compute API's bcast inits call it on the chip). The emulator runs the math
// and unpack threads as one, so this is the binary op init of api/compute/eltwise_binary.h and
// bcast.h: the op and broadcast the next binary call must match. A dest-reuse form is its own init
// (eltwise_binary.h's *_reuse_dest_init); acc_to_dest is accepted and ignored as there.
#include "api/compute/common.h"
#include "ditmk/compute.h"

template <ckernel::EltwiseBinaryType eltwise_binary_type, ckernel::BroadcastType src_b_bcast_type,
          ckernel::MathFidelity math_fidelity,
          ckernel::EltwiseBinaryReuseDestType binary_reuse_dest = EltwiseBinaryReuseDestType::NONE>
inline void llk_math_eltwise_binary_init(const uint32_t operand_A, const uint32_t operand_B,
                                         const uint32_t acc_to_dest = 0) {
  (void)operand_A, (void)operand_B, (void)acc_to_dest;
  constexpr uint32_t op = ditmk::compute::binary_op<eltwise_binary_type>();
  if constexpr (binary_reuse_dest == ckernel::EltwiseBinaryReuseDestType::NONE) {
    ditmk::compute::init(DITMK_INIT_BINARY, op, ditmk::compute::broadcast(src_b_bcast_type));
  } else {
    ditmk::compute::init(DITMK_INIT_BINARY_REUSE_DEST, op, uint32_t(binary_reuse_dest));
  }
}
