#pragma once
// LayerNorm of the residual's tile row on the compute processor, with fp32 statistics: this core's
// own tile normalised (and modulated by AdaLN's 1 + scale and shift) into cb_h. Onehub: the core
// holds its whole row. Seed: each core sums its own tile; the statistics round brings the 48 cores'
// partial sums of the row.
#include <stdint.h>

#include "compute_calls.hpp"
#include "core_context.hpp"

namespace ditmk::tt::kernel {

// The compute side: tt-metal's JIT builds the compute API for TRISC only.
#if defined(COMPILE_FOR_TRISC)

// The end of every LayerNorm: the mean (tile 0 of cb_m0's 2-page window) and E[x^2] (in cb_l0, or
// tile 1 of that window) of the row in every column -> rstd -> this core's tile normalised,
// optionally modulated, into cb_h.
inline void normalize_own_tile(Ctx& x, bool modulate, uint32_t eps_cb, uint32_t eps_tile, bool e2_in_m0) {
  const uint32_t own = x.x_own();
  const uint32_t e2_cb = e2_in_m0 ? x.cb_m0 : x.cb_l0, e2_tile = e2_in_m0 ? 1 : 0;
  // rstd = 1 / sqrt(E[x^2] - mean^2 + eps)
  cb_wait_front(x.cb_m0, 2);
  tile_regs_acquire();
  binary(x, ComputeOp::mul, x.cb_m0, x.cb_m0, 0, 0, 0);
  finish_math();
  pack_range(x, x.cb_m1, 0, 1);
  tile_regs_release();
  if (!e2_in_m0) cb_wait_front(x.cb_l0, 1);
  cb_wait_front(x.cb_m1, 1);
  tile_regs_acquire();
  binary(x, ComputeOp::sub, e2_cb, x.cb_m1, e2_tile, 0, 0);
  add_tile(x, eps_cb, eps_tile, 0);
  rsqrt_dst(0);
  finish_math();
  if (!e2_in_m0) cb_pop_front(x.cb_l0, 1);
  cb_pop_front(x.cb_m1, 1);
  pack_range(x, x.cb_l1, 0, 1);
  tile_regs_release();
  // this core's tile: n = (x - mean) * rstd
  tile_regs_acquire();
  binary(x, ComputeOp::sub, x.cb_x, x.cb_m0, own, 0, 0);
  finish_math();
  pack_range(x, x.cb_alpha, 0, 1);
  tile_regs_release();
  cb_pop_front(x.cb_m0, 2);
  cb_wait_front(x.cb_alpha, 1);
  cb_wait_front(x.cb_l1, 1);
  tile_regs_acquire();
  binary(x, ComputeOp::mul, x.cb_alpha, x.cb_l1, 0, 0, 0);
  finish_math();
  cb_pop_front(x.cb_alpha, 1);
  cb_pop_front(x.cb_l1, 1);
  pack_range(x, x.cb_m1, 0, 1);
  tile_regs_release();
  cb_wait_front(x.cb_m1, 1);
  // modulated: n * (1 + scale) + shift, the table rows holding 1 + scale and shift
  if (modulate) cb_wait_front(x.cb_adaln, 2);
  tile_regs_acquire();
  if (modulate) {
    binary(x, ComputeOp::mul_rows, x.cb_m1, x.cb_adaln, 0, 0, 0);
    add_row(x, x.cb_adaln, 1, 0);
  } else {
    copy(x, x.cb_m1, 0, 0);
  }
  finish_math();
  pack_range(x, x.cb_h, 0, 1);
  tile_regs_release();
  cb_pop_front(x.cb_m1, 1);
  if (modulate) cb_pop_front(x.cb_adaln, 2);
}

// The two fp32 tiles at the front of cb_s, transposed, into a `pages`-page window of `out` (the
// pages past two are zero).
inline void transpose_front_pair(Ctx& x, uint32_t out, uint32_t pages) {
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  transpose(x, x.cb_s, 0, 0);
  transpose(x, x.cb_s, 1, 1);
  finish_math();
  cb_pop_front(x.cb_s, 2);
  pack_range(x, out, 0, pages);
  tile_regs_release();
}

// Onehub: LayerNorm of the row in cb_x, this core's tile normalised into cb_h.
inline void layer_norm_own_tile(Ctx& x, bool modulate, uint32_t eps_cb, uint32_t eps_tile) {
  cb_wait_front(x.cb_x, kRowTiles);
  // mean: x x (1/D) in every column, accumulated over the row's 48 tiles
  tile_regs_acquire();
  for (uint32_t k = 0; k < kRowTiles; ++k) mm(x, x.cb_x, x.cb_stat, k, kInvWidthTile, 0);
  finish_math();
  pack_range(x, x.cb_m0, 0, 2);  // the mean and a zero tile: attention reads cb_m0 in 2-page windows
  tile_regs_release();
  // E[x^2], two tiles of squares at a time, the running sum kept in cb_l0
  for (uint32_t k = 0; k < kRowTiles; k += 2) {
    tile_regs_acquire();
    binary(x, ComputeOp::mul, x.cb_x, x.cb_x, k, k, 0);
    binary(x, ComputeOp::mul, x.cb_x, x.cb_x, k + 1, k + 1, 1);
    finish_math();
    pack_range(x, x.cb_s, 0, 2);
    tile_regs_release();
    cb_wait_front(x.cb_s, 2);
    tile_regs_acquire();
    if (k > 0) {
      cb_wait_front(x.cb_l0, 1);
      copy(x, x.cb_l0, 0, 0);
    }
    mm(x, x.cb_s, x.cb_stat, 0, kInvWidthTile, 0);
    mm(x, x.cb_s, x.cb_stat, 1, kInvWidthTile, 0);
    finish_math();
    cb_pop_front(x.cb_s, 2);
    if (k > 0) cb_pop_front(x.cb_l0, 1);
    pack_range(x, x.cb_l0, 0, 1);
    tile_regs_release();
  }
  normalize_own_tile(x, modulate, eps_cb, eps_tile, false);
}

// Seed: this core's share of its tile row's LayerNorm statistics, the sums of x and of x^2 over its
// own tile's 32 columns, as two fp32 tiles (every row holding the 32 token rows' sums) at the front
// of a 4-page cb_scores window.
inline void layer_norm_partial_stats(Ctx& x) {
  cb_wait_front(x.cb_x, x.x_pages());
  tile_regs_acquire();
  binary(x, ComputeOp::mul, x.cb_x, x.cb_x, x.x_own(), x.x_own(), 0);
  copy(x, x.cb_x, x.x_own(), 1);
  finish_math();
  pack_range(x, x.cb_s, 0, 2);  // x^2 and x as fp32
  tile_regs_release();
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  mm(x, x.cb_s, x.cb_ones, 1, 0, 0);  // x . 1: the row sums in every column
  mm(x, x.cb_s, x.cb_ones, 0, 0, 1);
  finish_math();
  cb_pop_front(x.cb_s, 2);
  pack_range(x, x.cb_s, 0, 2);
  tile_regs_release();
  // the sums along every row: row 0 is what the others need; cb_scores moves in 4-page windows
  transpose_front_pair(x, x.cb_scores, 4);
}

// Seed: the LayerNorm from the 48 partials of the tile row that the statistics round left in
// cb_part (per tile row: sums of x for cores 0-31, 32-47, sums of x^2 likewise).
inline void layer_norm_from_stats(Ctx& x, bool modulate, uint32_t eps_cb, uint32_t eps_tile) {
  cb_wait_front(x.cb_part, kPartPages);
  tile_regs_acquire();
  // 1^T P sums the cores' partials (rows of P) and leaves the total along every row
  for (uint32_t part = 0; part < 4; ++part) mm(x, x.cb_ones, x.cb_part, 0, x.row * 4 + part, part / 2);
  finish_math();
  cb_pop_front(x.cb_part, kPartPages);
  pack_range(x, x.cb_s, 0, 2);
  tile_regs_release();
  transpose_front_pair(x, x.cb_s, 2);  // the totals down every column, as the row path has them
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  binary(x, ComputeOp::mul, x.cb_s, x.cb_stat, 0, kInvWidthTile, 0);
  binary(x, ComputeOp::mul, x.cb_s, x.cb_stat, 1, kInvWidthTile, 1);
  finish_math();
  cb_pop_front(x.cb_s, 2);
  pack_range(x, x.cb_m0, 0, 2);  // the mean and E[x^2]
  tile_regs_release();
  cb_wait_front(x.cb_x, x.x_pages());
  normalize_own_tile(x, modulate, eps_cb, eps_tile, true);
}

#endif  // defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
