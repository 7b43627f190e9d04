#pragma once
// The LLK's packer edge mask for a reduce, which ttnn's kernel_lib sets itself for its SFPU reduce
// (a MIN reduce): not modelled, both calls fault naming themselves. Its FPU reduces set the mask
// through api/compute/reduce.h, which is modelled.
#include "ckernel_defs.h"
#include "ditmk/not_modelled.h"
#include "llk_defs.h"

template <ckernel::ReduceDim dim, ckernel::PackMode pack_mode = ckernel::PackMode::Default>
inline void llk_pack_reduce_mask_config(uint32_t ocb) {
  (void)ocb;
  ditmk::detail::not_modelled("llk_pack_reduce_mask_config");
}

inline void llk_pack_reduce_mask_clear() { ditmk::detail::not_modelled("llk_pack_reduce_mask_clear"); }
