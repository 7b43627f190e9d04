#pragma once
// Hub 0's compute processor around the denoise steps: the fp32 Euler state x_t (cb_act) to bf16
// for the encoder's round, and x_t += dt * v from the velocity landed in cb_land, the new state
// rounded to bf16 where the release rounds it, with the velocity taps packed for the host.
#include <stdint.h>

#include "compute_calls.hpp"
#include "core_context.hpp"

namespace ditmk::tt::kernel {

// The compute side: tt-metal's JIT builds the compute API for TRISC only.
#if defined(COMPILE_FOR_TRISC)

inline void hub_state_to_bf16(Ctx& x) {
  for (uint32_t i = 0; i < 2 * x.nt; ++i) {
    cb_wait_front(x.cb_act, 1);
    tile_regs_acquire();
    copy(x, x.cb_act, 0, 0);
    finish_math();
    cb_pop_front(x.cb_act, 1);
    pack_range(x, x.cb_act, 0, 1);
    pack_range(x, x.cb_xin, 0, 1);
    tile_regs_release();
  }
}

inline void hub_euler_update(Ctx& x, bool round_bf16) {
  cb_wait_front(x.cb_land, kLandPages);
  cb_wait_front(x.cb_hconst, 1);
  for (uint32_t i = 0; i < 2 * x.nt; ++i) {
    cb_wait_front(x.cb_act, 1);
    tile_regs_acquire();
    copy(x, x.cb_act, 0, 0);
    mm(x, x.cb_land, x.cb_hconst, i, 0, 0);  // + v x (dt I)
    copy(x, x.cb_land, i, 1);
    finish_math();
    cb_pop_front(x.cb_act, 1);
    pack_range(x, round_bf16 ? x.cb_xbf : x.cb_act, 0, 1);
    pack_range(x, x.cb_vel, 1, 1);
    tile_regs_release();
    if (!round_bf16) continue;
    cb_wait_front(x.cb_xbf, 1);
    tile_regs_acquire();
    copy(x, x.cb_xbf, 0, 0);
    finish_math();
    cb_pop_front(x.cb_xbf, 1);
    pack_range(x, x.cb_act, 0, 1);
    tile_regs_release();
  }
  cb_pop_front(x.cb_land, kLandPages);
}

#endif  // defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
