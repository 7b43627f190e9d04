#pragma once
// Reductions of a CB tile into DST[idst]: REDUCE_ROW reduces each row into column 0, REDUCE_COL each
// column into row 0, REDUCE_SCALAR the whole tile into (0,0); the other elements are 0. The result
// is weighed by the scaler tile as the FPU weighs it, element by element of each face's row 0
// (emu/reduce_scaler.hpp: a partial scaler masks columns or rows out; REDUCE_SCALAR applies it
// twice; MAX keeps only its powers of two). SUM and AVG are the same op. The op and dimension come
// from the template args or, as in older kernels, from the REDUCE_OP / REDUCE_DIM defines; the last
// op init must be a reduce init of the same op and dimension, and reduce_uninit (or the older
// reduce_revert_delta) must clear the packer's edge mask before other results are packed.
#include "api/compute/common.h"
#include "ditmk/compute.h"
// the LLK calls 0.81.1's header brings in, which kernels (ttnn's kernel_lib) call directly
#include "llk_math_reduce_api.h"
#include "llk_pack_reduce_api.h"
#include "llk_unpack_AB_reduce_api.h"

#ifdef REDUCE_OP
#define DITMK_REDUCE_OP REDUCE_OP
#else
// No REDUCE_OP: a call that relies on it faults and names the define.
#define DITMK_REDUCE_OP static_cast<ckernel::PoolType>(0xff)
#endif
#ifdef REDUCE_DIM
#define DITMK_REDUCE_DIM REDUCE_DIM
#else
#define DITMK_REDUCE_DIM static_cast<ckernel::ReduceDim>(0xff)
#endif

namespace ckernel {

namespace detail_reduce {
template <PoolType reduce_type, ReduceDim reduce_dim>
ALWI void init() {
  ditmk::compute::init(DITMK_INIT_REDUCE, uint32_t(reduce_type), uint32_t(reduce_dim));
}
}  // namespace detail_reduce

// The older full init, first template arg at_start.
template <bool at_start, PoolType reduce_type = DITMK_REDUCE_OP, ReduceDim reduce_dim = DITMK_REDUCE_DIM>
ALWI void reduce_init(uint32_t icb, uint32_t icb_scaler, uint32_t ocb = 16) {
  (void)icb, (void)icb_scaler, (void)ocb;
  ditmk::compute::init(DITMK_INIT_HW);
  detail_reduce::init<reduce_type, reduce_dim>();
}

// The newer op init (the hardware is configured by compute_kernel_hw_startup or a *_init_common);
// call_line is 0.81.1's LLK sanitizer's, ignored here.
template <PoolType reduce_type = DITMK_REDUCE_OP, ReduceDim reduce_dim = DITMK_REDUCE_DIM,
          bool enforce_fp32_accumulation = false>
ALWI void reduce_init(uint32_t icb, uint32_t icb_scaler, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
  (void)icb, (void)icb_scaler, (void)ocb, (void)call_line;
  detail_reduce::init<reduce_type, reduce_dim>();
}

template <PoolType reduce_type = DITMK_REDUCE_OP, ReduceDim reduce_dim = DITMK_REDUCE_DIM>
ALWI void reduce_init_short(uint32_t icb, uint32_t icb_scaler, uint32_t ocb = 16) {
  (void)icb, (void)icb_scaler, (void)ocb;
  detail_reduce::init<reduce_type, reduce_dim>();
}

template <bool at_start, PoolType reduce_type = DITMK_REDUCE_OP, ReduceDim reduce_dim = DITMK_REDUCE_DIM>
ALWI void reduce_init_delta(uint32_t ocb = 16, uint32_t icb0 = 0, uint32_t icb1 = 1) {
  (void)ocb, (void)icb0, (void)icb1;
  detail_reduce::init<reduce_type, reduce_dim>();
}

template <PoolType reduce_type = DITMK_REDUCE_OP, ReduceDim reduce_dim = DITMK_REDUCE_DIM>
ALWI void reduce_init_delta_no_pack(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  (void)icb0, (void)icb1;
  detail_reduce::init<reduce_type, reduce_dim>();
}

template <bool enforce_fp32_accumulation = false>
ALWI void reduce_uninit(uint32_t icb = 0) {
  (void)icb;
  ditmk::compute::init(DITMK_INIT_REDUCE_UNINIT);
}

template <ReduceDim reduce_dim = DITMK_REDUCE_DIM>
ALWI void reduce_revert_delta(uint32_t ocb = 16) {
  (void)ocb;
  ditmk::compute::init(DITMK_INIT_REDUCE_UNINIT);
}

template <PoolType reduce_type = DITMK_REDUCE_OP, ReduceDim reduce_dim = DITMK_REDUCE_DIM,
          bool enforce_fp32_accumulation = false>
ALWI void reduce_tile(uint32_t icb, uint32_t icb_scaler, uint32_t itile, uint32_t itile_scaler, uint32_t idst) {
  ditmk::abi->reduce_tile(uint32_t(reduce_type), uint32_t(reduce_dim), icb, icb_scaler, itile, itile_scaler, idst);
}

}  // namespace ckernel
