#pragma once
// copy_tile: a CB tile into DST[idst] (transposed when the copy init asked for it). copy_tile_init,
// copy_tile_to_dst_init_short*, unary_op_init_common or init_sfpu must be the last op init.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

ALWI void copy_tile_to_dst_init_short(uint32_t cbid = 0, uint32_t transpose = 0) {
  (void)cbid;
  ditmk::compute::init(DITMK_INIT_COPY, transpose != 0);
}

ALWI void copy_tile_init(uint32_t cbid = 0) { copy_tile_to_dst_init_short(cbid); }

// tt-metal 0.81.1's name of the copy init; a transpose within each 16x16 face only is refused.
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void copy_init(uint32_t cbid, uint32_t transpose = 0, uint32_t transpose_within_16x16_face = false,
                    uint32_t call_line = __builtin_LINE()) {
  (void)call_line;
  if (transpose_within_16x16_face != 0) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "copy_init: a transpose within each 16x16 face is not modelled");
  }
  copy_tile_to_dst_init_short(cbid, transpose);
}

ALWI void copy_tile_to_dst_init_short_with_dt(uint32_t old_cbid, uint32_t new_cbid, uint32_t transpose = 0) {
  (void)old_cbid;
  copy_tile_to_dst_init_short(new_cbid, transpose);
}

// The older one-CB form.
ALWI void copy_tile_to_dst_init_short_with_dt(uint32_t cbid) { copy_tile_to_dst_init_short(cbid); }

ALWI void copy_tile_matmul_partials_init_short_with_dt(uint32_t cbid) { copy_tile_to_dst_init_short(cbid); }

ALWI void copy_tile(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
  ditmk::abi->copy_tile(in_cb_id, in_tile_index, dst_tile_index);
}

// ntiles consecutive CB tiles into consecutive DST tiles, each as copy_tile copies it.
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void copy_block(uint32_t in_cb_id, uint32_t start_in_tile_index, uint32_t start_dst_tile_index,
                     uint32_t ntiles) {
  for (uint32_t i = 0; i < ntiles; ++i) copy_tile(in_cb_id, start_in_tile_index + i, start_dst_tile_index + i);
}

ALWI void copy_block_matmul_partials(uint32_t in_cb_id, uint32_t start_in_tile_index, uint32_t start_dst_tile_index,
                                     uint32_t ntiles) {
  copy_block(in_cb_id, start_in_tile_index, start_dst_tile_index, ntiles);
}

}  // namespace ckernel
