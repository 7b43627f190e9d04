#pragma once
// Head attention on the compute processor: Q from its three K-third partials, K^T from the K core's
// matmul output, softmax(Q K^T + mask) V over 64-key chunks with a running maximum, split key sets
// merged from their parts, the normalisation by the row sums.
#include <stdint.h>

#include "compute_calls.hpp"
#include "core_context.hpp"

namespace ditmk::tt::kernel {

// The compute side: tt-metal's JIT builds the compute API for TRISC only.
#if defined(COMPILE_FOR_TRISC)

// The K core of a head: its 4 K tiles in cb_mm0 (row tile r, column tile d at r * 2 + d) replaced
// by the K^T tiles attention multiplies by (d * 2 + r).
inline void transpose_head_k(Ctx& x) {
  cb_wait_front(x.cb_mm0, 4);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t d = 0; d < 2; ++d) transpose(x, x.cb_mm0, r * 2 + d, d * 2 + r);
  finish_math();
  pack_range(x, x.cb_mm0, 0, 4);
  tile_regs_release();
  cb_pop_front(x.cb_mm0, 4);
}

// Q_h from the three K-third partials in cb_part plus the bias, as 4 bf16 tiles into cb_q.
inline void assemble_q(Ctx& x) {
  cb_wait_front(x.cb_part, kPartPages);
  cb_wait_front(x.cb_bias0, 2);
  tile_regs_acquire();
  for (uint32_t i = 0; i < 4; ++i) {
    for (uint32_t third = 0; third < 3; ++third) add_tile(x, x.cb_part, third * 4 + i, i);
    add_row(x, x.cb_bias0, i % 2, i);
  }
  finish_math();
  pack_range(x, x.cb_q, 0, 4);
  tile_regs_release();
  cb_pop_front(x.cb_bias0, 2);
  cb_pop_front(x.cb_part, kPartPages);
}

// The row maxima of cb_alpha's front tile into column 0 of a 2-page cb_m1 window (the other page a
// zero tile: cb_m1 keeps 2-page windows in attention), waited for.
inline void row_max_of_alpha(Ctx& x) {
  cb_wait_front(x.cb_alpha, 1);
  tile_regs_acquire();
  row_max(x, x.cb_alpha, 0, 0);
  finish_math();
  cb_pop_front(x.cb_alpha, 1);
  pack_range(x, x.cb_m1, 0, 2);
  end_reduce(x);
  tile_regs_release();
  cb_wait_front(x.cb_m1, 2);
}

// DST[dst] = per-row maximum over the column-0 values of up to three tiles: the first copied, the
// others moved to columns 1 and 2, the remaining columns filled with the masked score so that
// the row maximum never takes a zero from elsewhere. Leaves it in column 0 of cb_m1 (2 pages).
inline void gather_row_maxima(Ctx& x, uint32_t cb0, uint32_t t0, uint32_t cb1, uint32_t t1, uint32_t cb2, uint32_t t2,
                              bool three) {
  tile_regs_acquire();
  copy(x, cb0, t0, 0);
  mm(x, cb1, x.cb_kt, t1, kMove01Tile, 0);
  if (three) mm(x, cb2, x.cb_kt, t2, kMove02Tile, 0);
  mm(x, x.cb_const, x.cb_kt, kIdentTile, three ? kFillFrom3Tile : kFillFrom2Tile, 0);
  finish_math();
  pack_range(x, x.cb_alpha, 0, 1);
  tile_regs_release();
  row_max_of_alpha(x);
}

// One 64-key chunk for query tile row r: S = Q K^T + mask, the running maximum m, P = exp(S - m),
// O = alpha O + P V and l = alpha l + rowsum(P) with alpha = exp(m_old - m).
inline void attention_chunk(Ctx& x, uint32_t q_cb, uint32_t r, bool first) {
  tile_regs_acquire();
  for (uint32_t kr = 0; kr < 2; ++kr) {
    for (uint32_t d = 0; d < 2; ++d) mm(x, q_cb, x.cb_k, r * 2 + d, d * 2 + kr, kr);
    add_row(x, x.cb_mask, kr, kr);
  }
  finish_math();
  pack_range(x, x.cb_s, 0, 2);
  tile_regs_release();
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  row_max(x, x.cb_s, 0, 0);
  row_max(x, x.cb_s, 1, 1);
  finish_math();
  pack_range(x, x.cb_m1, 0, 2);
  end_reduce(x);
  tile_regs_release();
  cb_wait_front(x.cb_m1, 2);
  if (!first) cb_wait_front(x.cb_m0, 1);
  tile_regs_acquire();
  copy(x, x.cb_m1, 0, 0);
  mm(x, x.cb_m1, x.cb_kt, 1, kMove01Tile, 0);
  if (!first) mm(x, x.cb_m0, x.cb_kt, 0, kMove02Tile, 0);
  mm(x, x.cb_const, x.cb_kt, kIdentTile, first ? kFillFrom2Tile : kFillFrom3Tile, 0);
  finish_math();
  cb_pop_front(x.cb_m1, 2);
  pack_range(x, x.cb_alpha, 0, 1);
  tile_regs_release();
  row_max_of_alpha(x);  // m_new
  if (!first) {
    tile_regs_acquire();
    binary(x, ComputeOp::sub, x.cb_m0, x.cb_m1, 0, 0, 0);
    exp_dst(0);
    finish_math();
    pack_range(x, x.cb_alpha, 0, 1);
    tile_regs_release();
  }
  tile_regs_acquire();
  for (uint32_t kr = 0; kr < 2; ++kr) {
    binary(x, ComputeOp::sub_cols, x.cb_s, x.cb_m1, kr, 0, kr);
    exp_dst(kr);
  }
  finish_math();
  pack_range(x, x.cb_s, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_s, 2);  // S; P is now at the front
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  if (!first) {
    cb_wait_front(x.cb_oacc, 2);
    cb_wait_front(x.cb_l0, 1);
    cb_wait_front(x.cb_alpha, 1);
    binary(x, ComputeOp::mul_cols, x.cb_oacc, x.cb_alpha, 0, 0, 0);
    binary(x, ComputeOp::mul_cols, x.cb_oacc, x.cb_alpha, 1, 0, 1);
    binary(x, ComputeOp::mul_cols, x.cb_l0, x.cb_alpha, 0, 0, 2);
  }
  for (uint32_t kr = 0; kr < 2; ++kr) {
    for (uint32_t d = 0; d < 2; ++d) mm(x, x.cb_s, x.cb_v, kr, kr * 2 + d, d);
    mm(x, x.cb_s, x.cb_ones, kr, 0, 2);  // P x ones: the row sum in every column
  }
  finish_math();
  cb_pop_front(x.cb_s, 2);
  if (!first) {
    cb_pop_front(x.cb_oacc, 2);
    cb_pop_front(x.cb_l0, 1);
    cb_pop_front(x.cb_alpha, 1);
    cb_pop_front(x.cb_m0, 1);
  }
  pack_range(x, x.cb_oacc, 0, 2);
  pack_range(x, x.cb_l0, 2, 1);
  tile_regs_release();
  tile_regs_acquire();
  copy(x, x.cb_m1, 0, 0);
  finish_math();
  cb_pop_front(x.cb_m1, 2);
  pack_range(x, x.cb_m0, 0, 1);
  tile_regs_release();
}

// O / l for both tile rows into cb_o (bf16).
inline void normalize_attention(Ctx& x) {
  for (uint32_t r = 0; r < 2; ++r) {
    cb_wait_front(x.cb_l0, 1);
    tile_regs_acquire();
    copy(x, x.cb_l0, 0, 0);
    recip_dst(0);
    finish_math();
    pack_range(x, x.cb_alpha, 0, 1);
    tile_regs_release();
    cb_pop_front(x.cb_l0, 1);
    cb_wait_front(x.cb_oacc, 2);
    cb_wait_front(x.cb_alpha, 1);
    tile_regs_acquire();
    binary(x, ComputeOp::mul, x.cb_oacc, x.cb_alpha, 0, 0, 0);
    binary(x, ComputeOp::mul, x.cb_oacc, x.cb_alpha, 1, 0, 1);
    finish_math();
    pack_range(x, x.cb_o, 0, 2);
    tile_regs_release();
    cb_pop_front(x.cb_oacc, 2);
    cb_pop_front(x.cb_alpha, 1);
  }
}

// Attention of head h over chunks [first, end) of 64 keys with a running maximum: leaves the
// unnormalised part (m in cb_m0, l in cb_l0, O in cb_oacc, both tile rows) on the core.
inline void attention_part(Ctx& x, uint32_t q_cb, uint32_t first_chunk, uint32_t end_chunk) {
  cb_wait_front(q_cb, 4);
  for (uint32_t j = first_chunk; j < end_chunk; ++j) {
    cb_wait_front(x.cb_k, 4);
    cb_wait_front(x.cb_v, 4);
    cb_wait_front(x.cb_mask, 2);
    for (uint32_t r = 0; r < 2; ++r) attention_chunk(x, q_cb, r, j == first_chunk);
    cb_pop_front(x.cb_k, 4);
    cb_pop_front(x.cb_v, 4);
    cb_pop_front(x.cb_mask, 2);
  }
  cb_pop_front(q_cb, 4);
}

// O_h = softmax(Q K^T + mask) V over all `chunks` on this core; 4 bf16 tiles into cb_o.
inline void head_attention(Ctx& x, uint32_t q_cb, uint32_t chunks) {
  attention_part(x, q_cb, 0, chunks);
  cb_wait_front(x.cb_m0, 2);
  cb_pop_front(x.cb_m0, 2);
  normalize_attention(x);
}

// Split key sets: the part cores stage (m, l, O) as 2 x 4 fp32 tiles in cb_scores for the
// exchange.
inline void stage_part(Ctx& x) {
  cb_wait_front(x.cb_m0, 2);
  cb_wait_front(x.cb_l0, 2);
  tile_regs_acquire();
  copy(x, x.cb_m0, 0, 0);
  copy(x, x.cb_m0, 1, 1);
  copy(x, x.cb_l0, 0, 2);
  copy(x, x.cb_l0, 1, 3);
  // cb_oacc runs in 2-tile windows: one tile row of O at a time
  for (uint32_t r = 0; r < 2; ++r) {
    cb_wait_front(x.cb_oacc, 2);
    copy(x, x.cb_oacc, 0, 4 + 2 * r);
    copy(x, x.cb_oacc, 1, 5 + 2 * r);
    cb_pop_front(x.cb_oacc, 2);
  }
  finish_math();
  pack_range(x, x.cb_scores, 0, 4);
  pack_range(x, x.cb_scores, 4, 4);
  tile_regs_release();
  cb_pop_front(x.cb_m0, 2);
  cb_pop_front(x.cb_l0, 2);
}

// Pages of a remote part in cb_part: part p (1, 2) holds m r0, m r1, l r0, l r1, O (r, d).
inline uint32_t part_m(uint32_t p, uint32_t r) { return (p - 1) * 8 + r; }
inline uint32_t part_l(uint32_t p, uint32_t r) { return (p - 1) * 8 + 2 + r; }
inline uint32_t part_o(uint32_t p, uint32_t r, uint32_t d) { return (p - 1) * 8 + 4 + r * 2 + d; }

// The head core of a split key set merges the two remote parts in cb_part with its own and
// normalises.
inline void merge_parts(Ctx& x) {
  cb_wait_front(x.cb_part, kPartPages);
  for (uint32_t r = 0; r < 2; ++r) {
    cb_wait_front(x.cb_m0, 1);
    gather_row_maxima(x, x.cb_m0, 0, x.cb_part, part_m(1, r), x.cb_part, part_m(2, r), true);
    // alpha_p = exp(m_p - m) of the own part and the two remote ones, then diag(alpha_p)
    tile_regs_acquire();
    binary(x, ComputeOp::sub, x.cb_m0, x.cb_m1, 0, 0, 0);
    binary(x, ComputeOp::sub, x.cb_part, x.cb_m1, part_m(1, r), 0, 1);
    binary(x, ComputeOp::sub, x.cb_part, x.cb_m1, part_m(2, r), 0, 2);
    for (uint32_t p = 0; p < 3; ++p) exp_dst(p);
    finish_math();
    pack_range(x, x.cb_s, 0, 2);
    pack_range(x, x.cb_s, 2, 2);
    tile_regs_release();
    cb_pop_front(x.cb_m1, 2);
    cb_pop_front(x.cb_m0, 1);
    cb_wait_front(x.cb_s, 4);
    tile_regs_acquire();
    for (uint32_t p = 0; p < 3; ++p) binary(x, ComputeOp::mul_cols, x.cb_const, x.cb_s, kIdentTile, p, p);
    finish_math();
    cb_pop_front(x.cb_s, 4);
    pack_range(x, x.cb_s, 0, 2);
    pack_range(x, x.cb_s, 2, 2);
    tile_regs_release();
    // O = sum_p diag(alpha_p) O_p, l likewise
    cb_wait_front(x.cb_s, 4);
    cb_wait_front(x.cb_oacc, 2);
    cb_wait_front(x.cb_l0, 1);
    tile_regs_acquire();
    for (uint32_t d = 0; d < 2; ++d) {
      mm(x, x.cb_s, x.cb_oacc, 0, d, d);
      for (uint32_t p = 1; p <= 2; ++p) mm(x, x.cb_s, x.cb_part, p, part_o(p, r, d), d);
    }
    mm(x, x.cb_s, x.cb_l0, 0, 0, 2);
    for (uint32_t p = 1; p <= 2; ++p) mm(x, x.cb_s, x.cb_part, p, part_l(p, r), 2);
    finish_math();
    cb_pop_front(x.cb_s, 4);
    cb_pop_front(x.cb_oacc, 2);
    cb_pop_front(x.cb_l0, 1);
    pack_range(x, x.cb_oacc, 0, 2);
    pack_range(x, x.cb_l0, 2, 1);
    tile_regs_release();
  }
  cb_pop_front(x.cb_part, kPartPages);
  normalize_attention(x);
}

#endif  // defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
