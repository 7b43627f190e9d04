// Compile check of the dialect's compute API in the newer style (void kernel_main(), api/compute/
// headers): element-wise and broadcast ops, matmul, a row reduction, SFPU ops and packing.
// Compile-time args: [0] tiles per block. CBs: 0 and 1 inputs, 2 the reduce scaler, 16 the output.
#include <stdint.h>

#include "api/compute/bcast.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/gelu.h"
#include "api/compute/eltwise_unary/recip.h"
#include "api/compute/eltwise_unary/rsqrt.h"
#include "api/compute/eltwise_unary/sqrt.h"
#include "api/compute/matmul.h"
#include "api/compute/reduce.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/transpose_wh.h"
#include "api/compute/compute_kernel_api.h"

void kernel_main() {
  constexpr uint32_t tiles = get_compile_time_arg_val(0);
  constexpr auto cb_a = tt::CBIndex::c_0;
  constexpr auto cb_b = tt::CBIndex::c_1;
  constexpr auto cb_scaler = tt::CBIndex::c_2;
  constexpr auto cb_out = tt::CBIndex::c_16;

  compute_kernel_hw_startup(cb_a, cb_b, cb_out);
  cb_wait_front(cb_scaler, 1);
  for (uint32_t i = 0; i < tiles; ++i) {
    DeviceZoneScopedN("compute-block");
    cb_wait_front(cb_a, 1);
    cb_wait_front(cb_b, 1);
    cb_reserve_back(cb_out, 4);

    tile_regs_acquire();
    add_tiles_init(cb_a, cb_b);
    add_tiles(cb_a, cb_b, 0, 0, 0);
    mul_bcast_rows_init_short(cb_a, cb_b);
    mul_tiles_bcast_rows(cb_a, cb_b, 0, 0, 1);
    sub_bcast_cols_init_short(cb_a, cb_b);
    sub_tiles_bcast<BroadcastType::COL>(cb_a, cb_b, 0, 0, 2);
    mm_init_short(cb_a, cb_b, 1);
    matmul_tiles(cb_a, cb_b, 0, 0, 3);
    exp_tile_init<true>();
    exp_tile<true>(0);
    recip_tile_init();
    recip_tile(1);
    sqrt_tile_init();
    sqrt_tile(2, VectorMode::RC);
    rsqrt_tile_init<false>();
    rsqrt_tile<false>(2);
    gelu_tile_init<true>();
    gelu_tile<true>(3);
    silu_tile_init();
    silu_tile(3);
    tile_regs_commit();

    tile_regs_wait();
    for (uint32_t t = 0; t < 4; ++t) pack_tile(t, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 4);

    cb_reserve_back(cb_out, 1);
    tile_regs_acquire();
    reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_a, cb_scaler, cb_out);
    reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_a, cb_scaler, 0, 0, 0);
    reduce_uninit();
    transpose_wh_init_short(cb_b);
    transpose_wh_tile(cb_b, 0, 1);
    copy_tile_to_dst_init_short(cb_a);
    copy_tile(cb_a, 0, 2);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile<true>(0, cb_out, 0);
    tile_regs_release();
    cb_push_back(cb_out, 1);

    cb_pop_front(cb_a, 1);
    cb_pop_front(cb_b, 1);
    DPRINT_MATH(DPRINT << "block " << i << " of " << tiles << ENDL());
  }
  DEVICE_PRINT_PACK("packed {} blocks\n", tiles);
}
