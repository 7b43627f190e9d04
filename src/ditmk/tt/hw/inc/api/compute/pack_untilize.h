#pragma once
// tt-metal 0.81.1's pack untilize: the packer writes DST tiles as row-major rows into the output
// CB's reservation (rows full_ct_dim tiles wide; a block of block_ct_dim tiles at column tile
// block_c_index * block_ct_dim). pack_untilize_block copies its tiles from the input CB's front into
// DST first; pack_untilize_dest packs what the kernel put in DST (tile r * block_ct_dim + c for tile
// row r, column c). Forms the emulator does not model (narrow rows, partial rows, diagonal, dense,
// DST offsets, several tile rows through pack_untilize_block) fault in one line.
#include "api/compute/common.h"
#include "ditmk/compute.h"
#include "ditmk/layout.h"

namespace ckernel {

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_init(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
  static_assert(full_ct_dim % block_ct_dim == 0, "pack_untilize: full_ct_dim must be a multiple of block_ct_dim");
  (void)icb, (void)ocb, (void)call_line;
  ditmk::layout::untilize_init();
}

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_init_skip_remap(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
  pack_untilize_init<block_ct_dim, full_ct_dim, is_fp32_dest_acc_en>(icb, ocb, call_line);
}

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool narrow_row = false,
          uint32_t row_num_datums = TILE_C_DIM, bool dense = false, bool configure_remap = true,
          bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_dest_init(uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
  static_assert(full_ct_dim % block_ct_dim == 0, "pack_untilize: full_ct_dim must be a multiple of block_ct_dim");
  (void)ocb, (void)call_line;
  if (narrow_row || row_num_datums != TILE_C_DIM || dense) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                         "pack_untilize_dest_init: narrow, partial or dense rows are not modelled (whole 32-wide rows only)");
  }
  ditmk::compute::init(DITMK_INIT_PACK_UNTILIZE, 1);
}

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_block(uint32_t icb, uint32_t block_rt_dim, uint32_t ocb, uint32_t block_c_index = 0) {
  if (block_rt_dim != 1) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                         ditmk::detail::Message() << "pack_untilize_block: block_rt_dim " << block_rt_dim
                                                  << " is not modelled (one tile row per call)");
  }
  ditmk::layout::untilize_block_of(icb, 0, block_ct_dim, full_ct_dim, ocb, block_c_index);
}

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool diagonal = false, bool narrow_row = false,
          uint32_t row_num_datums = TILE_C_DIM, uint32_t tile_dst_ct_offset = 0, bool dense = false>
ALWI void pack_untilize_dest(uint32_t ocb, uint32_t block_rt_dim = 1, uint32_t block_c_index = 0,
                             uint32_t tile_dst_rt_offset = 0) {
  if (diagonal || narrow_row || row_num_datums != TILE_C_DIM || tile_dst_ct_offset != 0 || dense ||
      tile_dst_rt_offset != 0) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                         "pack_untilize_dest: diagonal, narrow, partial or dense rows and DST offsets are not modelled");
  }
  ditmk::abi->pack_untilize(block_ct_dim, full_ct_dim, ocb, block_c_index, block_rt_dim);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_uninit(uint32_t ocb) {
  (void)ocb;
  ditmk::layout::untilize_uninit();
}

}  // namespace ckernel
