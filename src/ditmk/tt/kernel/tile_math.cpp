#include "ditmk/tt/kernel/tile_math.hpp"

namespace ditmk::tt::kernel {

using namespace emu;

namespace {

void pack_range(uint32_t cb, uint32_t first_dst, uint32_t n) {
  cb_reserve_back(cb, n);
  for (uint32_t i = 0; i < n; ++i) pack_tile(first_dst + i, cb);
  cb_push_back(cb, n);
}

void finish_math() {
  tile_regs_commit();
  tile_regs_wait();
}

void activate(uint32_t dst, Activation act) {
  switch (act) {
    case Activation::none: return;
    case Activation::relu: return;  // no DST op: relu_tiles after packing
    case Activation::silu: silu_tile(dst); return;
    case Activation::gelu: gelu_tile(dst); return;
  }
}

// DST[dst] += the row-broadcast tile `tile` of cb (bias, shift): column0 x tile.
void add_row(Ctx& x, uint32_t cb, uint32_t tile, uint32_t dst) {
  matmul_tiles(x.cb_const, cb, kColumn0Tile, tile, dst);
}

// DST[dst] += tile `tile` of cb exactly: identity x tile.
void add_tile(Ctx& x, uint32_t cb, uint32_t tile, uint32_t dst) { matmul_tiles(x.cb_const, cb, kIdentTile, tile, dst); }

// ReLU has no DST op: relu(v) = (v + |v|) / 2 with |v| = sqrt(v * v), on the 2 fp32 tiles in
// cb_oacc; the result goes to cb_o as bf16.
void relu_tiles(Ctx& x) {
  cb_wait_front(x.cb_oacc, 2);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r) {
    mul_tiles(x.cb_oacc, x.cb_oacc, r, r, r);
    sqrt_tile(r);
  }
  finish_math();
  pack_range(x.cb_s, 0, 4);  // |v| and two zero tiles: cb_s moves in whole 4-page turns
  tile_regs_release();
  cb_wait_front(x.cb_s, 4);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r) {
    matmul_tiles(x.cb_const, x.cb_s, kHalfIdentTile, r, r);
    matmul_tiles(x.cb_const, x.cb_oacc, kHalfIdentTile, r, r);
  }
  finish_math();
  pack_range(x.cb_o, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_s, 4);
  cb_pop_front(x.cb_oacc, 2);
}

}  // namespace

void stream_matmul(Ctx& x, uint32_t k_tiles, uint32_t a_row_tiles, uint32_t a_col0) {
  for (uint32_t kb = 0; kb < k_tiles / 8; ++kb) {
    cb_wait_front(x.cb_w, kKBlockPages);
    for (uint32_t k = 0; k < 8; ++k)
      for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t n = 0; n < 2; ++n)
          matmul_tiles(x.cb_a, x.cb_w, r * a_row_tiles + a_col0 + kb * 8 + k, k * 2 + n, r * 2 + n);
    cb_pop_front(x.cb_w, kKBlockPages);
  }
}

void full_k_op(Ctx& x, uint32_t a_row_tiles, Activation act) {
  cb_wait_front(x.cb_a, kCbAPages);
  tile_regs_acquire();
  stream_matmul(x, a_row_tiles, a_row_tiles, 0);
  cb_wait_front(x.cb_bias0, 2);
  for (uint32_t i = 0; i < 4; ++i) {
    add_row(x, x.cb_bias0, i % 2, i);
    activate(i, act);
  }
  finish_math();
  pack_range(x.cb_mm0, 0, 4);
  tile_regs_release();
  cb_pop_front(x.cb_bias0, 2);
  cb_pop_front(x.cb_a, kCbAPages);
}

void partial_op(Ctx& x, uint32_t k_tiles, uint32_t a_row_tiles, uint32_t a_col0) {
  cb_wait_front(x.cb_a, kCbAPages);
  tile_regs_acquire();
  stream_matmul(x, k_tiles, a_row_tiles, a_col0);
  finish_math();
  pack_range(x.cb_scores, 0, 4);
  tile_regs_release();
  cb_pop_front(x.cb_a, kCbAPages);
}

void ff2_chunk_partials(Ctx& x, uint32_t chunks) {
  const uint32_t chunk_tiles = kChunkPages / 2;
  const uint32_t k0 = x.quarter * kRowTiles, k1 = k0 + kRowTiles;
  tile_regs_acquire();
  for (uint32_t kc = 0; kc < chunks; ++kc) {
    cb_wait_front(x.cb_a, kChunkPages);
    const uint32_t lo = k0 > kc * chunk_tiles ? k0 : kc * chunk_tiles;
    const uint32_t hi = k1 < (kc + 1) * chunk_tiles ? k1 : (kc + 1) * chunk_tiles;
    if (lo < hi) stream_matmul(x, hi - lo, chunk_tiles, lo - kc * chunk_tiles);
    cb_pop_front(x.cb_a, kChunkPages);
  }
  finish_math();
  pack_range(x.cb_scores, 0, 4);
  tile_regs_release();
}

void transpose_head_k(Ctx& x) {
  cb_wait_front(x.cb_mm0, 4);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t d = 0; d < 2; ++d) transpose_wh_tile(x.cb_mm0, r * 2 + d, d * 2 + r);
  finish_math();
  pack_range(x.cb_mm0, 0, 4);
  tile_regs_release();
  cb_pop_front(x.cb_mm0, 4);
}

void tail_op(Ctx& x, uint32_t k_tiles, uint32_t a_row_tiles, Activation act) {
  cb_wait_front(x.cb_a, kCbAPages);
  cb_wait_front(x.cb_tw, kTailPages);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t k = 0; k < k_tiles; ++k) matmul_tiles(x.cb_a, x.cb_tw, r * a_row_tiles + k, k, r);
  cb_wait_front(x.cb_bias0, 2);
  for (uint32_t r = 0; r < 2; ++r) {
    add_row(x, x.cb_bias0, 0, r);
    activate(r, act);
  }
  finish_math();
  pack_range(act == Activation::relu ? x.cb_oacc : x.cb_o, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_bias0, 2);
  cb_pop_front(x.cb_tw, kTailPages);
  cb_pop_front(x.cb_a, kCbAPages);
  if (act == Activation::relu) relu_tiles(x);
}

void encoder_out_op(Ctx& x, uint32_t k_tiles) {
  cb_wait_front(x.cb_a, kCbAPages);
  cb_wait_front(x.cb_tw, kTailPages);
  cb_wait_front(x.cb_tconst, 6);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t k = 0; k < k_tiles; ++k) matmul_tiles(x.cb_a, x.cb_tw, r * k_tiles + k, k, r);
    add_tile(x, x.cb_tconst, r, r);  // b3 + position rows
  }
  finish_math();
  pack_range(x.cb_oacc, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_tw, kTailPages);
  cb_pop_front(x.cb_a, kCbAPages);
  // action rows keep the encoder output, the others take the state / future token rows
  cb_wait_front(x.cb_oacc, 2);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r) {
    mul_tiles(x.cb_oacc, x.cb_tconst, r, 2 + r, r);
    add_tile(x, x.cb_tconst, 4 + r, r);
  }
  finish_math();
  pack_range(x.cb_o, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_oacc, 2);
}

void assemble_q(Ctx& x) {
  cb_wait_front(x.cb_part, kPartPages);
  cb_wait_front(x.cb_bias0, 2);
  tile_regs_acquire();
  for (uint32_t i = 0; i < 4; ++i) {
    for (uint32_t third = 0; third < 3; ++third) add_tile(x, x.cb_part, third * 4 + i, i);
    add_row(x, x.cb_bias0, i % 2, i);
  }
  finish_math();
  pack_range(x.cb_q, 0, 4);
  tile_regs_release();
  cb_pop_front(x.cb_bias0, 2);
  cb_pop_front(x.cb_part, kPartPages);
}

namespace {

// DST[dst] = per-row maximum over the column-0 values of up to three tiles: the first copied, the
// others moved to columns 1 and 2, the remaining columns filled with the masked score so that
// reduce_tile's zeros elsewhere never win.
void gather_row_maxima(Ctx& x, uint32_t cb0, uint32_t t0, uint32_t cb1, uint32_t t1, uint32_t cb2, uint32_t t2,
                       bool three) {
  tile_regs_acquire();
  copy_tile(cb0, t0, 0);
  matmul_tiles(cb1, x.cb_kt, t1, kMove01Tile, 0);
  if (three) matmul_tiles(cb2, x.cb_kt, t2, kMove02Tile, 0);
  matmul_tiles(x.cb_const, x.cb_kt, kIdentTile, three ? kFillFrom3Tile : kFillFrom2Tile, 0);
  finish_math();
  pack_range(x.cb_alpha, 0, 1);
  tile_regs_release();
  cb_wait_front(x.cb_alpha, 1);
  tile_regs_acquire();
  reduce_tile(ReduceFunc::max, ReduceDim::row, x.cb_alpha, 0, 0);
  finish_math();
  cb_pop_front(x.cb_alpha, 1);
  pack_range(x.cb_m1, 0, 2);  // m and a zero tile: cb_m1 keeps 2-page windows in attention
  tile_regs_release();
  cb_wait_front(x.cb_m1, 2);
}

// One 64-key chunk for query tile row r: S = Q K^T + mask, the running maximum m, P = exp(S - m),
// O = alpha O + P V and l = alpha l + rowsum(P) with alpha = exp(m_old - m).
void attention_chunk(Ctx& x, uint32_t q_cb, uint32_t r, bool first) {
  tile_regs_acquire();
  for (uint32_t kr = 0; kr < 2; ++kr) {
    for (uint32_t d = 0; d < 2; ++d) matmul_tiles(q_cb, x.cb_k, r * 2 + d, d * 2 + kr, kr);
    add_row(x, x.cb_mask, kr, kr);
  }
  finish_math();
  pack_range(x.cb_s, 0, 2);
  tile_regs_release();
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  reduce_tile(ReduceFunc::max, ReduceDim::row, x.cb_s, 0, 0);
  reduce_tile(ReduceFunc::max, ReduceDim::row, x.cb_s, 1, 1);
  finish_math();
  pack_range(x.cb_m1, 0, 2);
  tile_regs_release();
  cb_wait_front(x.cb_m1, 2);
  if (!first) cb_wait_front(x.cb_m0, 1);
  tile_regs_acquire();
  copy_tile(x.cb_m1, 0, 0);
  matmul_tiles(x.cb_m1, x.cb_kt, 1, kMove01Tile, 0);
  if (!first) matmul_tiles(x.cb_m0, x.cb_kt, 0, kMove02Tile, 0);
  matmul_tiles(x.cb_const, x.cb_kt, kIdentTile, first ? kFillFrom2Tile : kFillFrom3Tile, 0);
  finish_math();
  cb_pop_front(x.cb_m1, 2);
  pack_range(x.cb_alpha, 0, 1);
  tile_regs_release();
  cb_wait_front(x.cb_alpha, 1);
  tile_regs_acquire();
  reduce_tile(ReduceFunc::max, ReduceDim::row, x.cb_alpha, 0, 0);
  finish_math();
  cb_pop_front(x.cb_alpha, 1);
  pack_range(x.cb_m1, 0, 2);  // m_new in column 0, and a zero tile: cb_m1 keeps 2-page windows
  tile_regs_release();
  cb_wait_front(x.cb_m1, 2);
  if (!first) {
    tile_regs_acquire();
    sub_tiles(x.cb_m0, x.cb_m1, 0, 0, 0);
    exp_tile(0);
    finish_math();
    pack_range(x.cb_alpha, 0, 1);
    tile_regs_release();
  }
  tile_regs_acquire();
  for (uint32_t kr = 0; kr < 2; ++kr) {
    sub_tiles(x.cb_s, x.cb_m1, kr, 0, kr, Broadcast::col);
    exp_tile(kr);
  }
  finish_math();
  pack_range(x.cb_s, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_s, 2);  // S; P is now at the front
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  if (!first) {
    cb_wait_front(x.cb_oacc, 2);
    cb_wait_front(x.cb_l0, 1);
    cb_wait_front(x.cb_alpha, 1);
    mul_tiles(x.cb_oacc, x.cb_alpha, 0, 0, 0, Broadcast::col);
    mul_tiles(x.cb_oacc, x.cb_alpha, 1, 0, 1, Broadcast::col);
    mul_tiles(x.cb_l0, x.cb_alpha, 0, 0, 2, Broadcast::col);
  }
  for (uint32_t kr = 0; kr < 2; ++kr) {
    for (uint32_t d = 0; d < 2; ++d) matmul_tiles(x.cb_s, x.cb_v, kr, kr * 2 + d, d);
    matmul_tiles(x.cb_s, x.cb_ones, kr, 0, 2);  // P x ones: the row sum in every column
  }
  finish_math();
  cb_pop_front(x.cb_s, 2);
  if (!first) {
    cb_pop_front(x.cb_oacc, 2);
    cb_pop_front(x.cb_l0, 1);
    cb_pop_front(x.cb_alpha, 1);
    cb_pop_front(x.cb_m0, 1);
  }
  pack_range(x.cb_oacc, 0, 2);
  pack_range(x.cb_l0, 2, 1);
  tile_regs_release();
  tile_regs_acquire();
  copy_tile(x.cb_m1, 0, 0);
  finish_math();
  cb_pop_front(x.cb_m1, 2);
  pack_range(x.cb_m0, 0, 1);
  tile_regs_release();
}

// O / l for both tile rows into cb_o (bf16).
void normalize_attention(Ctx& x) {
  for (uint32_t r = 0; r < 2; ++r) {
    cb_wait_front(x.cb_l0, 1);
    tile_regs_acquire();
    copy_tile(x.cb_l0, 0, 0);
    recip_tile(0);
    finish_math();
    pack_range(x.cb_alpha, 0, 1);
    tile_regs_release();
    cb_pop_front(x.cb_l0, 1);
    cb_wait_front(x.cb_oacc, 2);
    cb_wait_front(x.cb_alpha, 1);
    tile_regs_acquire();
    mul_tiles(x.cb_oacc, x.cb_alpha, 0, 0, 0);
    mul_tiles(x.cb_oacc, x.cb_alpha, 1, 0, 1);
    finish_math();
    pack_range(x.cb_o, 0, 2);
    tile_regs_release();
    cb_pop_front(x.cb_oacc, 2);
    cb_pop_front(x.cb_alpha, 1);
  }
}

// Pages of a remote part in cb_part: part p (1, 2) holds m r0, m r1, l r0, l r1, O (r, d).
uint32_t part_m(uint32_t p, uint32_t r) { return (p - 1) * 8 + r; }
uint32_t part_l(uint32_t p, uint32_t r) { return (p - 1) * 8 + 2 + r; }
uint32_t part_o(uint32_t p, uint32_t r, uint32_t d) { return (p - 1) * 8 + 4 + r * 2 + d; }

}  // namespace

void attention_part(Ctx& x, uint32_t q_cb, uint32_t first_chunk, uint32_t end_chunk) {
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

void head_attention(Ctx& x, uint32_t q_cb, uint32_t chunks) {
  attention_part(x, q_cb, 0, chunks);
  cb_wait_front(x.cb_m0, 2);
  cb_pop_front(x.cb_m0, 2);
  normalize_attention(x);
}

void stage_part(Ctx& x) {
  cb_wait_front(x.cb_m0, 2);
  cb_wait_front(x.cb_l0, 2);
  tile_regs_acquire();
  copy_tile(x.cb_m0, 0, 0);
  copy_tile(x.cb_m0, 1, 1);
  copy_tile(x.cb_l0, 0, 2);
  copy_tile(x.cb_l0, 1, 3);
  // cb_oacc runs in 2-tile windows: one tile row of O at a time
  for (uint32_t r = 0; r < 2; ++r) {
    cb_wait_front(x.cb_oacc, 2);
    copy_tile(x.cb_oacc, 0, 4 + 2 * r);
    copy_tile(x.cb_oacc, 1, 5 + 2 * r);
    cb_pop_front(x.cb_oacc, 2);
  }
  finish_math();
  pack_range(x.cb_scores, 0, 4);
  pack_range(x.cb_scores, 4, 4);
  tile_regs_release();
  cb_pop_front(x.cb_m0, 2);
  cb_pop_front(x.cb_l0, 2);
}

void merge_parts(Ctx& x) {
  cb_wait_front(x.cb_part, kPartPages);
  for (uint32_t r = 0; r < 2; ++r) {
    cb_wait_front(x.cb_m0, 1);
    gather_row_maxima(x, x.cb_m0, 0, x.cb_part, part_m(1, r), x.cb_part, part_m(2, r), true);
    // alpha_p = exp(m_p - m) of the own part and the two remote ones, then diag(alpha_p)
    tile_regs_acquire();
    sub_tiles(x.cb_m0, x.cb_m1, 0, 0, 0);
    sub_tiles(x.cb_part, x.cb_m1, part_m(1, r), 0, 1);
    sub_tiles(x.cb_part, x.cb_m1, part_m(2, r), 0, 2);
    for (uint32_t p = 0; p < 3; ++p) exp_tile(p);
    finish_math();
    pack_range(x.cb_s, 0, 2);
    pack_range(x.cb_s, 2, 2);
    tile_regs_release();
    cb_pop_front(x.cb_m1, 2);
    cb_pop_front(x.cb_m0, 1);
    cb_wait_front(x.cb_s, 4);
    tile_regs_acquire();
    for (uint32_t p = 0; p < 3; ++p) mul_tiles(x.cb_const, x.cb_s, kIdentTile, p, p, Broadcast::col);
    finish_math();
    cb_pop_front(x.cb_s, 4);
    pack_range(x.cb_s, 0, 2);
    pack_range(x.cb_s, 2, 2);
    tile_regs_release();
    // O = sum_p diag(alpha_p) O_p, l likewise
    cb_wait_front(x.cb_s, 4);
    cb_wait_front(x.cb_oacc, 2);
    cb_wait_front(x.cb_l0, 1);
    tile_regs_acquire();
    for (uint32_t d = 0; d < 2; ++d) {
      matmul_tiles(x.cb_s, x.cb_oacc, 0, d, d);
      for (uint32_t p = 1; p <= 2; ++p) matmul_tiles(x.cb_s, x.cb_part, p, part_o(p, r, d), d);
    }
    matmul_tiles(x.cb_s, x.cb_l0, 0, 0, 2);
    for (uint32_t p = 1; p <= 2; ++p) matmul_tiles(x.cb_s, x.cb_part, p, part_l(p, r), 2);
    finish_math();
    cb_pop_front(x.cb_s, 4);
    cb_pop_front(x.cb_oacc, 2);
    cb_pop_front(x.cb_l0, 1);
    pack_range(x.cb_oacc, 0, 2);
    pack_range(x.cb_l0, 2, 1);
    tile_regs_release();
  }
  cb_pop_front(x.cb_part, kPartPages);
  normalize_attention(x);
}

void residual_update(Ctx& x, bool in_place) {
  cb_wait_front(x.cb_part, kPartPages);
  cb_wait_front(x.cb_x, x.x_pages());
  cb_wait_front(x.cb_bias0, 2);
  tile_regs_acquire();
  copy_tile(x.cb_x, x.x_own(), 0);
  for (uint32_t q = 0; q < 4; ++q) add_tile(x, x.cb_part, q, 0);
  add_row(x, x.cb_bias0, 0, 0);
  finish_math();
  cb_pop_front(x.cb_bias0, 2);
  cb_pop_front(x.cb_part, kPartPages);
  // a round refills the row (the BRISC), or the new tile replaces the old one
  cb_pop_front(x.cb_x, x.x_pages());
  if (in_place) x.x_row = false;
  pack_range(in_place ? x.cb_x : x.cb_h, 0, 1);
  tile_regs_release();
}

namespace {

// The end of every LayerNorm: the mean (tile 0 of cb_m0's 2-page window) and E[x^2] (in cb_l0, or
// tile 1 of that window) of the row in every column -> rstd -> this core's tile normalised,
// optionally modulated, into cb_h.
void normalize_own_tile(Ctx& x, bool modulate, uint32_t eps_cb, uint32_t eps_tile, bool e2_in_m0) {
  const uint32_t own = x.x_own();
  const uint32_t e2_cb = e2_in_m0 ? x.cb_m0 : x.cb_l0, e2_tile = e2_in_m0 ? 1 : 0;
  // rstd = 1 / sqrt(E[x^2] - mean^2 + eps)
  cb_wait_front(x.cb_m0, 2);
  tile_regs_acquire();
  mul_tiles(x.cb_m0, x.cb_m0, 0, 0, 0);
  finish_math();
  pack_range(x.cb_m1, 0, 1);
  tile_regs_release();
  if (!e2_in_m0) cb_wait_front(x.cb_l0, 1);
  cb_wait_front(x.cb_m1, 1);
  tile_regs_acquire();
  sub_tiles(e2_cb, x.cb_m1, e2_tile, 0, 0);
  add_tile(x, eps_cb, eps_tile, 0);
  rsqrt_tile(0);
  finish_math();
  if (!e2_in_m0) cb_pop_front(x.cb_l0, 1);
  cb_pop_front(x.cb_m1, 1);
  pack_range(x.cb_l1, 0, 1);
  tile_regs_release();
  // this core's tile: n = (x - mean) * rstd
  tile_regs_acquire();
  sub_tiles(x.cb_x, x.cb_m0, own, 0, 0);
  finish_math();
  pack_range(x.cb_alpha, 0, 1);
  tile_regs_release();
  cb_pop_front(x.cb_m0, 2);
  cb_wait_front(x.cb_alpha, 1);
  cb_wait_front(x.cb_l1, 1);
  tile_regs_acquire();
  mul_tiles(x.cb_alpha, x.cb_l1, 0, 0, 0);
  finish_math();
  cb_pop_front(x.cb_alpha, 1);
  cb_pop_front(x.cb_l1, 1);
  pack_range(x.cb_m1, 0, 1);
  tile_regs_release();
  cb_wait_front(x.cb_m1, 1);
  // modulated: n * (1 + scale) + shift, the table rows holding 1 + scale and shift
  if (modulate) cb_wait_front(x.cb_adaln, 2);
  tile_regs_acquire();
  if (modulate) {
    mul_tiles(x.cb_m1, x.cb_adaln, 0, 0, 0, Broadcast::row);
    add_row(x, x.cb_adaln, 1, 0);
  } else {
    copy_tile(x.cb_m1, 0, 0);
  }
  finish_math();
  pack_range(x.cb_h, 0, 1);
  tile_regs_release();
  cb_pop_front(x.cb_m1, 1);
  if (modulate) cb_pop_front(x.cb_adaln, 2);
}

// The two fp32 tiles at the front of cb_s, transposed, into a `pages`-page window of `out` (the
// pages past two are zero).
void transpose_front_pair(Ctx& x, uint32_t out, uint32_t pages) {
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  transpose_wh_tile(x.cb_s, 0, 0);
  transpose_wh_tile(x.cb_s, 1, 1);
  finish_math();
  cb_pop_front(x.cb_s, 2);
  pack_range(out, 0, pages);
  tile_regs_release();
}

}  // namespace

void layer_norm_own_tile(Ctx& x, bool modulate, uint32_t eps_cb, uint32_t eps_tile) {
  cb_wait_front(x.cb_x, kRowTiles);
  // mean: x x (1/D) in every column, accumulated over the row's 48 tiles
  tile_regs_acquire();
  for (uint32_t k = 0; k < kRowTiles; ++k) matmul_tiles(x.cb_x, x.cb_stat, k, kInvWidthTile, 0);
  finish_math();
  pack_range(x.cb_m0, 0, 2);  // the mean and a zero tile: attention reads cb_m0 in 2-page windows
  tile_regs_release();
  // E[x^2], two tiles of squares at a time, the running sum kept in cb_l0
  for (uint32_t k = 0; k < kRowTiles; k += 2) {
    tile_regs_acquire();
    mul_tiles(x.cb_x, x.cb_x, k, k, 0);
    mul_tiles(x.cb_x, x.cb_x, k + 1, k + 1, 1);
    finish_math();
    pack_range(x.cb_s, 0, 2);
    tile_regs_release();
    cb_wait_front(x.cb_s, 2);
    tile_regs_acquire();
    if (k > 0) {
      cb_wait_front(x.cb_l0, 1);
      copy_tile(x.cb_l0, 0, 0);
    }
    matmul_tiles(x.cb_s, x.cb_stat, 0, kInvWidthTile, 0);
    matmul_tiles(x.cb_s, x.cb_stat, 1, kInvWidthTile, 0);
    finish_math();
    cb_pop_front(x.cb_s, 2);
    if (k > 0) cb_pop_front(x.cb_l0, 1);
    pack_range(x.cb_l0, 0, 1);
    tile_regs_release();
  }
  normalize_own_tile(x, modulate, eps_cb, eps_tile, false);
}

void layer_norm_partial_stats(Ctx& x) {
  cb_wait_front(x.cb_x, x.x_pages());
  tile_regs_acquire();
  mul_tiles(x.cb_x, x.cb_x, x.x_own(), x.x_own(), 0);
  copy_tile(x.cb_x, x.x_own(), 1);
  finish_math();
  pack_range(x.cb_s, 0, 2);  // x^2 and x as fp32
  tile_regs_release();
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  matmul_tiles(x.cb_s, x.cb_ones, 1, 0, 0);  // x . 1: the row sums in every column
  matmul_tiles(x.cb_s, x.cb_ones, 0, 0, 1);
  finish_math();
  cb_pop_front(x.cb_s, 2);
  pack_range(x.cb_s, 0, 2);
  tile_regs_release();
  // the sums along every row: row 0 is what the others need; cb_scores moves in 4-page windows
  transpose_front_pair(x, x.cb_scores, 4);
}

void layer_norm_from_stats(Ctx& x, bool modulate, uint32_t eps_cb, uint32_t eps_tile) {
  cb_wait_front(x.cb_part, kPartPages);
  tile_regs_acquire();
  // 1^T P sums the cores' partials (rows of P) and leaves the total along every row
  for (uint32_t part = 0; part < 4; ++part) matmul_tiles(x.cb_ones, x.cb_part, 0, x.row * 4 + part, part / 2);
  finish_math();
  cb_pop_front(x.cb_part, kPartPages);
  pack_range(x.cb_s, 0, 2);
  tile_regs_release();
  transpose_front_pair(x, x.cb_s, 2);  // the totals down every column, as the row path has them
  cb_wait_front(x.cb_s, 2);
  tile_regs_acquire();
  mul_tiles(x.cb_s, x.cb_stat, 0, kInvWidthTile, 0);
  mul_tiles(x.cb_s, x.cb_stat, 1, kInvWidthTile, 1);
  finish_math();
  cb_pop_front(x.cb_s, 2);
  pack_range(x.cb_m0, 0, 2);  // the mean and E[x^2]
  tile_regs_release();
  cb_wait_front(x.cb_x, x.x_pages());
  normalize_own_tile(x, modulate, eps_cb, eps_tile, true);
}

void hub_state_to_bf16(Ctx& x) {
  for (uint32_t i = 0; i < 2 * x.nt; ++i) {
    cb_wait_front(x.cb_act, 1);
    tile_regs_acquire();
    copy_tile(x.cb_act, 0, 0);
    finish_math();
    cb_pop_front(x.cb_act, 1);
    pack_range(x.cb_act, 0, 1);
    pack_range(x.cb_xin, 0, 1);
    tile_regs_release();
  }
}

void hub_euler_update(Ctx& x, bool round_bf16) {
  cb_wait_front(x.cb_land, kLandPages);
  cb_wait_front(x.cb_hconst, 1);
  for (uint32_t i = 0; i < 2 * x.nt; ++i) {
    cb_wait_front(x.cb_act, 1);
    tile_regs_acquire();
    copy_tile(x.cb_act, 0, 0);
    matmul_tiles(x.cb_land, x.cb_hconst, i, 0, 0);  // + v x (dt I)
    copy_tile(x.cb_land, i, 1);
    finish_math();
    cb_pop_front(x.cb_act, 1);
    pack_range(round_bf16 ? x.cb_xbf : x.cb_act, 0, 1);
    pack_range(x.cb_vel, 1, 1);
    tile_regs_release();
    if (!round_bf16) continue;
    cb_wait_front(x.cb_xbf, 1);
    tile_regs_acquire();
    copy_tile(x.cb_xbf, 0, 0);
    finish_math();
    cb_pop_front(x.cb_xbf, 1);
    pack_range(x.cb_act, 0, 1);
    tile_regs_release();
  }
  cb_pop_front(x.cb_land, kLandPages);
}

}  // namespace ditmk::tt::kernel
