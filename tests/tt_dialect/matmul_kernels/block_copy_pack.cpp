// Moves tiles in blocks: for each block of BLOCK tiles of a (CB 0) and of b (CB 1), copy_block puts
// a's tiles in DST 0..BLOCK-1 and b's in BLOCK..2*BLOCK-1, and one pack_block packs all 2*BLOCK into
// CB 16, so the output is a's block then b's block, block after block. The block arithmetic goes
// through mod_div_lib's helpers. MAILBOX: the kernel first reads the BRISC mailbox, which faults.
#include <cstdint>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack.h"
#include "api/compute/tile_move_copy.h"
#include "internal/mod_div_lib.h"

void kernel_main() {
  constexpr uint32_t num_tiles = get_compile_time_arg_val(0);
  constexpr uint32_t block = 2;
  constexpr uint32_t cb_a = 0, cb_b = 1, cb_out = 16;
#ifdef MAILBOX
  if (mailbox_read(ckernel::ThreadId::BriscThreadId) == 0) return;
#endif
  compute_kernel_hw_startup(cb_a, cb_out);
  copy_init(cb_a);
  const uint32_t blocks = udivsi3_const_divisor<block>(num_tiles);
  for (uint32_t i = 0; i < blocks; ++i) {
    cb_wait_front(cb_a, block);
    cb_wait_front(cb_b, block);
    tile_regs_acquire();
    copy_block(cb_a, 0, 0, block);
    copy_block(cb_b, 0, block, block);
    tile_regs_commit();
    cb_pop_front(cb_a, block);
    cb_pop_front(cb_b, block);
    tile_regs_wait();
    cb_reserve_back(cb_out, mulsi3(block, 2));
    pack_block(0, cb_out, mulsi3(block, 2));
    cb_push_back(cb_out, mulsi3(block, 2));
    tile_regs_release();
  }
}
