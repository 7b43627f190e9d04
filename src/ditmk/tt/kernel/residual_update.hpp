#pragma once
// The residual update of this core's own tile on the compute processor: x + the four K-quarter
// partials of out / ff2 in cb_part + the bias.
#include <stdint.h>

#include "compute_calls.hpp"
#include "core_context.hpp"

namespace ditmk::tt::kernel {

// The compute side: tt-metal's JIT builds the compute API for TRISC only.
#if defined(COMPILE_FOR_TRISC)

// Packed into cb_h for a residual round, or (`in_place`) into cb_x as this core's only tile.
inline void residual_update(Ctx& x, bool in_place) {
  cb_wait_front(x.cb_part, kPartPages);
  cb_wait_front(x.cb_x, x.x_pages());
  cb_wait_front(x.cb_bias0, 2);
  tile_regs_acquire();
  copy(x, x.cb_x, x.x_own(), 0);
  for (uint32_t q = 0; q < 4; ++q) add_tile(x, x.cb_part, q, 0);
  add_row(x, x.cb_bias0, 0, 0);
  finish_math();
  cb_pop_front(x.cb_bias0, 2);
  cb_pop_front(x.cb_part, kPartPages);
  // a round refills the row (the BRISC), or the new tile replaces the old one
  cb_pop_front(x.cb_x, x.x_pages());
  if (in_place) x.x_row = false;
  pack_range(x, in_place ? x.cb_x : x.cb_h, 0, 1);
  tile_regs_release();
}

#endif  // defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
