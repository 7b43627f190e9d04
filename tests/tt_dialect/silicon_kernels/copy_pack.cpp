// Copies each tile of CB 0 through DST into CB 16. With PACK_UNRESERVED it packs without
// cb_reserve_back, as a published tt-metal example does and silicon accepts. With STD_HEADERS it
// counts its tiles through <algorithm> and <cstring>, hosted standard headers silicon's toolchain has.
#include <stdint.h>
#ifdef STD_HEADERS
#include <algorithm>
#include <cstring>
#endif

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
#ifdef STD_HEADERS
  // std::min is header-only; std::memcpy comes with the kernel's entry (ditmk_kernel_entry.h)
  uint32_t tiles = 0;
  const uint32_t given = get_compile_time_arg_val(0);
  std::memcpy(&tiles, &given, sizeof tiles);
  tiles = std::min<uint32_t>(tiles, 64);
#else
  constexpr uint32_t tiles = get_compile_time_arg_val(0);
#endif
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
#ifndef PACK_UNRESERVED
    cb_reserve_back(cb_out, 1);
#endif
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);
    cb_pop_front(cb_in, 1);
  }
}
