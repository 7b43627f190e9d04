// Test compute kernel of the layout calls: row-major blocks to tiles (TILIZE, FAST_TILIZE) or tiles
// to row-major blocks (PACK_UNTILIZE, UNTILIZE, FAST_UNTILIZE, PACK_UNTILIZE_DEST), one block of
// `block` tiles side by side at a time. Compile-time args: [0] the input CB, [1] the output CB, [2]
// the number of blocks, [3] the block's width in tiles (4 here). SKIP_INIT leaves out the op's init.
#include <stdint.h>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/experimental/fast_untilize.h"
#include "api/compute/pack_untilize.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/tilize.h"
#include "api/compute/untilize.h"

void kernel_main() {
  constexpr uint32_t cb_in = get_compile_time_arg_val(0);
  constexpr uint32_t cb_out = get_compile_time_arg_val(1);
  constexpr uint32_t blocks = get_compile_time_arg_val(2);
  constexpr uint32_t block = get_compile_time_arg_val(3);
  compute_kernel_hw_startup(cb_in, cb_out);
#if defined(SKIP_INIT)
  // no op init: the first tile call faults
#elif defined(TILIZE)
  tilize_init(cb_in, block, cb_out);
#elif defined(FAST_TILIZE)
  fast_tilize_init(cb_in, block, cb_out);
#elif defined(PACK_UNTILIZE)
  pack_untilize_init<block / 2, block>(cb_in, cb_out);
#elif defined(PACK_UNTILIZE_DEST)
  copy_tile_to_dst_init_short(cb_in);
  pack_untilize_dest_init<block>(cb_out);
#elif defined(UNTILIZE)
  untilize_init(cb_in);
#elif defined(FAST_UNTILIZE)
  fast_untilize_init<block>(cb_in, cb_out);
#endif
  for (uint32_t b = 0; b < blocks; ++b) {
    cb_wait_front(cb_in, block);
    cb_reserve_back(cb_out, block);
#if defined(TILIZE)
    tilize_block(cb_in, block, cb_out);
#elif defined(FAST_TILIZE)
    fast_tilize_block(cb_in, block, cb_out);
#elif defined(PACK_UNTILIZE)
    // two half-width blocks into one row of the output
    pack_untilize_block<block / 2, block>(cb_in, 1, cb_out, 0);
    cb_pop_front(cb_in, block / 2);
    pack_untilize_block<block / 2, block>(cb_in, 1, cb_out, 1);
    cb_pop_front(cb_in, block / 2);
#elif defined(PACK_UNTILIZE_DEST)
    tile_regs_acquire();
    for (uint32_t t = 0; t < block; ++t) copy_tile(cb_in, t, t);
    tile_regs_commit();
    tile_regs_wait();
    pack_untilize_dest<block>(cb_out);
    tile_regs_release();
#elif defined(UNTILIZE)
    untilize_block<2>(cb_in, block, cb_out);
#elif defined(FAST_UNTILIZE)
    fast_untilize_block<block>(cb_in, cb_out);
#endif
    cb_push_back(cb_out, block);
#if !defined(PACK_UNTILIZE)
    cb_pop_front(cb_in, block);
#endif
  }
#if defined(TILIZE)
  tilize_uninit(cb_in, cb_out);
#elif defined(FAST_TILIZE)
  fast_tilize_uninit(cb_in, cb_out, block);
#elif defined(PACK_UNTILIZE) || defined(PACK_UNTILIZE_DEST)
  pack_untilize_uninit(cb_out);
#elif defined(UNTILIZE)
  untilize_uninit(cb_in);
#elif defined(FAST_UNTILIZE)
  fast_untilize_uninit<block>(cb_out);
#endif
}
