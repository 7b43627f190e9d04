// Copies `tiles` tiles of CB 0 through DST into CB 16 (compile-time arg 0: tiles): a compute call on
// whatever format the CBs hold.
#include <stdint.h>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
  constexpr uint32_t tiles = get_compile_time_arg_val(0);
  constexpr uint32_t cb_in = tt::CBIndex::c_0;
  constexpr uint32_t cb_out = tt::CBIndex::c_16;
  compute_kernel_hw_startup(cb_in, cb_out);
  copy_tile_init(cb_in);
  for (uint32_t i = 0; i < tiles; ++i) {
    cb_wait_front(cb_in, 1);
    tile_regs_acquire();
    copy_tile(cb_in, 0, 0);
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(cb_out, 1);
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);
    cb_pop_front(cb_in, 1);
  }
}
