#pragma once
// Tile matmul: DST[idst] += A x B (B transposed when the init or the call says so), fp32
// accumulation. mm_init (full) or mm_init_short / matmul_init (op only) must be the last op init.
// The older matmul_tiles takes its own transpose flag, which must agree with the init's: the
// unpacker and the math engine transpose different parts of the tile.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

ALWI void mm_init(uint32_t in0_cb_id = 0, uint32_t in1_cb_id = 1, uint32_t out_cb_id = 16,
                  const uint32_t transpose = 0) {
  (void)in0_cb_id, (void)in1_cb_id, (void)out_cb_id;
  ditmk::compute::init(DITMK_INIT_HW);
  ditmk::compute::init(DITMK_INIT_MATMUL, transpose != 0);
}

ALWI void mm_init_short(uint32_t in0_cb_id = 0, uint32_t in1_cb_id = 1, const uint32_t transpose = 0) {
  (void)in0_cb_id, (void)in1_cb_id;
  ditmk::compute::init(DITMK_INIT_MATMUL, transpose != 0);
}

ALWI void mm_init_short_with_dt(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t c_in_old_srca,
                                const uint32_t transpose = 0) {
  (void)c_in_old_srca;
  mm_init_short(in0_cb_id, in1_cb_id, transpose);
}

// The newer name of mm_init_short (call_line is 0.81.1's LLK sanitizer's; ignored here).
ALWI void matmul_init(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0,
                      uint32_t call_line = __builtin_LINE()) {
  (void)call_line;
  mm_init_short(in0_cb_id, in1_cb_id, transpose);
}

ALWI void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst) {
  ditmk::abi->matmul_tiles(in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst,
                           DITMK_MATMUL_TRANSPOSE_FROM_INIT);
}

ALWI void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst, const uint32_t transpose) {
  ditmk::abi->matmul_tiles(in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst, transpose != 0);
}

ALWI void mm_block_init(uint32_t in0_cb_id = 0, uint32_t in1_cb_id = 1, uint32_t out_cb_id = 16,
                        const uint32_t transpose = 0, uint32_t ct_dim = 1, uint32_t rt_dim = 1, uint32_t kt_dim = 1) {
  (void)ct_dim, (void)rt_dim, (void)kt_dim;
  mm_init(in0_cb_id, in1_cb_id, out_cb_id, transpose);
}

ALWI void mm_block_init_short(uint32_t in0_cb_id = 0, uint32_t in1_cb_id = 1, const uint32_t transpose = 0,
                              uint32_t ct_dim = 1, uint32_t rt_dim = 1, uint32_t kt_dim = 1) {
  (void)ct_dim, (void)rt_dim, (void)kt_dim;
  mm_init_short(in0_cb_id, in1_cb_id, transpose);
}

ALWI void mm_block_init_short_with_dt(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t old_in1_cb_id,
                                      const uint32_t transpose = 0, uint32_t ct_dim = 1, uint32_t rt_dim = 1,
                                      uint32_t kt_dim = 1) {
  (void)old_in1_cb_id;
  mm_block_init_short(in0_cb_id, in1_cb_id, transpose, ct_dim, rt_dim, kt_dim);
}

// The newer name of mm_block_init_short.
ALWI void matmul_block_init(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0, uint32_t ct_dim = 1,
                            uint32_t rt_dim = 1, uint32_t kt_dim = 1) {
  mm_block_init_short(in0_cb_id, in1_cb_id, transpose, ct_dim, rt_dim, kt_dim);
}

// One inner-dimension step of an rt_dim x ct_dim block: A's tile of block row r is
// in0_tile_index + r * kt_dim, B's tile of block column c is in1_tile_index + c, and the product
// accumulates into DST[idst + r * ct_dim + c].
ALWI void matmul_block(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst, const uint32_t transpose, uint32_t ct_dim, uint32_t rt_dim, uint32_t kt_dim) {
  for (uint32_t r = 0; r < rt_dim; ++r) {
    for (uint32_t c = 0; c < ct_dim; ++c) {
      matmul_tiles(in0_cb_id, in1_cb_id, in0_tile_index + r * kt_dim, in1_tile_index + c, idst + r * ct_dim + c,
                   transpose);
    }
  }
}

}  // namespace ckernel
