#pragma once
// tt-metal 0.81.1's tilize: the unpacker reads 32 rows of row-major data at the input CB's front
// (rows `block` tiles wide, as the init said) one 32x32 tile at a time into DST, and the packer
// writes each as a tile of the output CB (docs/tt-dialect.md, "Tilize and untilize"). The fast
// forms give the same tiles; an fp32 input is read as tf32 there, as the chip's fast path does.
#include "api/compute/common.h"
#include "ditmk/compute.h"
#include "ditmk/layout.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tilize_init(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
  (void)icb, (void)ocb, (void)call_line;
  ditmk::compute::init(DITMK_INIT_TILIZE, block, 0);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tilize_init_short_with_dt(uint32_t old_icb, uint32_t new_icb, uint32_t block, uint32_t ocb) {
  (void)old_icb;
  tilize_init<is_fp32_dest_acc_en>(new_icb, block, ocb);
}

// input_tile_index counts tiles of the row-major block (a multiple of `block` moves down whole tile
// rows); output_tile_index is where the first tile lands in ocb's reservation.
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tilize_block(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t input_tile_index = 0,
                       uint32_t output_tile_index = 0) {
  ditmk::layout::tilize_tiles(icb, input_tile_index, block, ocb, output_tile_index);
}

ALWI void tilize_uninit(uint32_t icb, uint32_t ocb) { (void)icb, (void)ocb; }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_init(uint32_t icb, uint32_t full_dim, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
  (void)icb, (void)ocb, (void)call_line;
  ditmk::compute::init(DITMK_INIT_TILIZE, full_dim, 1);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_init_skip_remap(uint32_t icb, uint32_t full_dim, uint32_t ocb,
                                      uint32_t call_line = __builtin_LINE()) {
  fast_tilize_init<is_fp32_dest_acc_en>(icb, full_dim, ocb, call_line);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_init_with_dt(uint32_t icb, uint32_t full_dim, uint32_t ocb) {
  fast_tilize_init<is_fp32_dest_acc_en>(icb, full_dim, ocb);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_init_with_dt_skip_remap(uint32_t icb, uint32_t full_dim, uint32_t ocb) {
  fast_tilize_init<is_fp32_dest_acc_en>(icb, full_dim, ocb);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_uninit(uint32_t icb, uint32_t ocb, uint32_t full_dim) {
  (void)icb, (void)ocb, (void)full_dim;
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_block(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t input_tile_index = 0,
                            uint32_t output_tile_index = 0) {
  ditmk::layout::tilize_tiles(icb, input_tile_index, block, ocb, output_tile_index);
}

}  // namespace ckernel
