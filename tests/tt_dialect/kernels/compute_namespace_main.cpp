// Compile check of the dialect's compute API in the older style (namespace NAMESPACE { void MAIN },
// acquire_dst/release_dst, REDUCE_OP/REDUCE_DIM defines, the 6-argument
// matmul_tiles). Runtime args: the block count. CBs: 0 and 1 inputs, 2 the reduce scaler, 16 the
// output.
#include <stdint.h>

#define REDUCE_OP PoolType::MAX
#define REDUCE_DIM ReduceDim::REDUCE_COL

#include "api/compute/compute_kernel_api.h"
#include "api/compute/bcast.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/matmul.h"
#include "api/compute/reduce.h"
#include "api/compute/tile_move_copy.h"

namespace NAMESPACE {
void MAIN {
  const uint32_t blocks = get_arg_val<uint32_t>(0);
  constexpr uint32_t cb_a = tt::CB::c_in0;
  constexpr uint32_t cb_b = tt::CB::c_in1;
  constexpr uint32_t cb_scaler = tt::CB::c_in2;
  constexpr uint32_t cb_out = tt::CB::c_out0;

  mm_init(cb_a, cb_b, cb_out);
  for (uint32_t b = 0; b < blocks; ++b) {
    cb_wait_front(cb_a, 2);
    cb_wait_front(cb_b, 2);
    cb_reserve_back(cb_out, 2);
    acquire_dst(tt::DstMode::Half);
    mm_init_short(cb_a, cb_b);
    for (uint32_t k = 0; k < 2; ++k) matmul_tiles(cb_a, cb_b, k, k, 0, false);
    matmul_block(cb_a, cb_b, 0, 0, 1, false, 1, 1, 2);
    pack_tile(0, cb_out);
    unary_op_init_common(cb_a, cb_out);
    copy_tile_init();
    copy_tile(cb_a, 1, 1);
    exp_tile_init<true, true>();
    exp_tile<true, true>(1, (int)VectorMode::RC);
    pack_tile(1, cb_out);
    release_dst(tt::DstMode::Half);
    cb_push_back(cb_out, 2);

    cb_wait_front(cb_scaler, 1);
    cb_reserve_back(cb_out, 1);
    acquire_dst();
    reduce_init<true>(cb_a, cb_scaler, cb_out);
    reduce_tile(cb_a, cb_scaler, 0, 0, 0);
    reduce_revert_delta();
    binary_op_init_common(cb_a, cb_b, cb_out);
    mul_tiles_init_f();
    mul_tiles(cb_a, cb_b, 0, 0, 1);
    add_bcast_scalar_init_short();
    add_tiles_bcast_scalar(cb_a, cb_b, 1, 1, 2);
    pack_tile(0, cb_out);
    release_dst();
    cb_push_back(cb_out, 1);

    cb_pop_front(cb_a, 2);
    cb_pop_front(cb_b, 2);
    UNPACK(DPRINT << "block " << b << ENDL());
  }
}
}  // namespace NAMESPACE
