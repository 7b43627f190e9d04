#pragma once
// tt-metal 0.81.1's unpack-based untilize (deprecated there in favour of pack_untilize): full_ct_dim
// tiles at the input CB's front become 32 row-major rows full_ct_dim tiles wide in the output CB's
// reservation. The emulator gives the same rows through its pack untilize.
#include "api/compute/common.h"
#include "ditmk/layout.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void untilize_init(uint32_t icb, uint32_t call_line = __builtin_LINE()) {
  (void)icb, (void)call_line;
  ditmk::layout::untilize_init();
}

template <uint32_t block_ct_dim = 1, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void untilize_block(uint32_t icb, uint32_t full_ct_dim, uint32_t ocb) {
  if (full_ct_dim % block_ct_dim != 0) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "untilize_block: full_ct_dim must be a multiple of block_ct_dim");
  }
  for (uint32_t b = 0; b < full_ct_dim / block_ct_dim; ++b) {
    ditmk::layout::untilize_block_of(icb, b * block_ct_dim, block_ct_dim, full_ct_dim, ocb, b);
  }
}

ALWI void untilize_uninit(uint32_t icb) {
  (void)icb;
  ditmk::layout::untilize_uninit();
}

}  // namespace ckernel
