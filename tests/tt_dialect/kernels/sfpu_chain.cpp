// The shape of ttnn's eltwise_sfpu.cpp on CB 0 -> CB 16: each tile copied into DST, the SFPU chain
// ttnn's unary factory writes as the SFPU_OP_CHAIN_0 define run on it, and the result packed.
// Compile-time arg 0: the tile count.
#include <stdint.h>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_unary/sfpu_split_includes.h"
#include "api/compute/mul_int_sfpu.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
  constexpr uint32_t tiles = get_compile_time_arg_val(0);
  constexpr uint32_t cb_in = tt::CBIndex::c_0;
  constexpr uint32_t cb_out = tt::CBIndex::c_16;
  compute_kernel_hw_startup(cb_in, cb_out);
  copy_init(cb_in);
  for (uint32_t i = 0; i < tiles; ++i) {
    tile_regs_acquire();
    cb_wait_front(cb_in, 1);
    cb_reserve_back(cb_out, 1);
    copy_tile(cb_in, 0, 0);
    SFPU_OP_CHAIN_0
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, cb_out);
    cb_pop_front(cb_in, 1);
    cb_push_back(cb_out, 1);
    tile_regs_release();
  }
}
