// Each tile of CB 0 broadcast on its own into DST (unary_bcast<BCAST_DIM>, as binary_ng's broadcast
// kernels use it) and packed into CB 16. Compile-time arg 0: the tile count. BCAST_CALL_DIM, when
// defined, is the broadcast of the tile calls instead (a mismatch the emulator refuses).
#include <stdint.h>

#include "api/compute/bcast.h"
#include "api/compute/compute_kernel_hw_startup.h"

#ifndef BCAST_CALL_DIM
#define BCAST_CALL_DIM BCAST_DIM
#endif

void kernel_main() {
  constexpr uint32_t tiles = get_compile_time_arg_val(0);
  constexpr uint32_t cb_in = tt::CBIndex::c_0;
  constexpr uint32_t cb_out = tt::CBIndex::c_16;
  compute_kernel_hw_startup(cb_in, cb_out);
  unary_bcast_init<BroadcastType::BCAST_DIM>(cb_in);
  for (uint32_t i = 0; i < tiles; ++i) {
    cb_wait_front(cb_in, 1);
    cb_reserve_back(cb_out, 1);
    tile_regs_acquire();
    unary_bcast<BroadcastType::BCAST_CALL_DIM>(cb_in, 0, 0);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_pop_front(cb_in, 1);
    cb_push_back(cb_out, 1);
  }
  unary_bcast_uninit<BroadcastType::BCAST_DIM>(cb_in);
}
