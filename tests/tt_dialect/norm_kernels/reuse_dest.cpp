// The dest-reuse binaries and the typed SFPU options of the softmax and layernorm headers, per tile
// pair (a from CB 0, b from CB 1): DST = a; DST - b (DST as SrcA); b - DST (DST as SrcB); DST * b;
// 1 / DST (ReciprocalDestAcc::FP32, Precise, as softmax's row sum); 1 / sqrt(DST) (RsqrtMode::Default,
// as layernorm's): sqrt((2b - a) * b) into CB 16. With WRONG_INIT the second dest-reuse call runs
// after the first one's init, which names the other source register.
#include <stdint.h>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/layernorm.h"
#include "api/compute/softmax.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
  const uint32_t tiles = get_arg_val<uint32_t>(0);
  constexpr uint32_t cb_a = tt::CBIndex::c_0;
  constexpr uint32_t cb_b = tt::CBIndex::c_1;
  constexpr uint32_t cb_out = tt::CBIndex::c_16;
  compute_kernel_hw_startup(cb_a, cb_b, cb_out);
  for (uint32_t i = 0; i < tiles; ++i) {
    cb_wait_front(cb_a, 1);
    cb_wait_front(cb_b, 1);
    tile_regs_acquire();
    copy_init(cb_a);
    copy_tile(cb_a, 0, 0);
    sub_reuse_dest_init<EltwiseBinaryReuseDestType::DEST_TO_SRCA>(cb_b);
    sub_reuse_dest_tiles<EltwiseBinaryReuseDestType::DEST_TO_SRCA>(cb_b, 0, 0);
#ifndef WRONG_INIT
    sub_reuse_dest_init<EltwiseBinaryReuseDestType::DEST_TO_SRCB>(cb_b);
#endif
    sub_reuse_dest_tiles<EltwiseBinaryReuseDestType::DEST_TO_SRCB>(cb_b, 0, 0);
    mul_reuse_dest_init<EltwiseBinaryReuseDestType::DEST_TO_SRCA>(cb_b);
    mul_reuse_dest_tiles<EltwiseBinaryReuseDestType::DEST_TO_SRCA>(cb_b, 0, 0);
    recip_tile_init<ReciprocalDestAcc::FP32, ReciprocalApproxMode::Precise>();
    recip_tile<ReciprocalDestAcc::FP32, ReciprocalApproxMode::Precise>(0);
    rsqrt_tile_init();
    rsqrt_tile<RsqrtMode::Default>(0);
    tile_regs_commit();
    cb_pop_front(cb_a, 1);
    cb_pop_front(cb_b, 1);
    cb_reserve_back(cb_out, 1);
    tile_regs_wait();
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);
  }
}
