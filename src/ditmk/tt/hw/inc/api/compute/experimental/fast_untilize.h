#pragma once
// tt-metal 0.81.1's fast untilize (Blackhole): the rows of full_ct_dim tiles from the input CB's
// front (from input_tile_index) written into the output CB's reservation, as pack_untilize_block
// writes them. An output_tile_index other than 0 is not modelled.
#include "api/compute/pack_untilize.h"

namespace ckernel {

template <uint32_t full_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_untilize_init(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
  (void)icb, (void)ocb, (void)call_line;
  ditmk::layout::untilize_init();
}

template <uint32_t full_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_untilize_init_skip_remap(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
  fast_untilize_init<full_ct_dim, is_fp32_dest_acc_en>(icb, ocb, call_line);
}

template <uint32_t full_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_untilize_block(uint32_t icb, uint32_t ocb, uint32_t input_tile_index = 0,
                              uint32_t output_tile_index = 0) {
  static_assert(full_ct_dim > 0, "fast_untilize full_ct_dim must be greater than 0");
  if (output_tile_index != 0) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "fast_untilize_block: an output_tile_index other than 0 is not modelled");
  }
  // one tile per DST pass: the rows come out the same for any split
  for (uint32_t c = 0; c < full_ct_dim; ++c) {
    ditmk::layout::untilize_block_of(icb, input_tile_index + c, 1, full_ct_dim, ocb, c);
  }
}

template <uint32_t full_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_untilize_uninit(uint32_t ocb) {
  (void)ocb;
  ditmk::layout::untilize_uninit();
}

}  // namespace ckernel
