#pragma once
// The compute processor's matmuls: the streamed weight slices of the blocks' ops (whole-K with
// bias and activation, or K-split partials in fp32), the seed's FF2 over the chunk ring, the tail
// ops of the encoder and the output head from their fixed cb_tw transaction.
#include <stdint.h>

#include "compute_calls.hpp"
#include "core_context.hpp"

namespace ditmk::tt::kernel {

enum class Activation { none, relu, silu, gelu };

// The compute side: tt-metal's JIT builds the compute API for TRISC only.
#if defined(COMPILE_FOR_TRISC)

inline void activate(uint32_t dst, Activation act) {
  if (act == Activation::silu) silu_dst(dst);
  if (act == Activation::gelu) gelu_dst(dst);
  // relu has no DST op: relu_tiles after packing
}

// DST[r * 2 + n] += A(r, a_col0 + k) x W(k, n) over `k_tiles` K tiles streamed through cb_w;
// A is cb_a with `a_row_tiles` tiles per row.
inline void stream_matmul(Ctx& x, uint32_t k_tiles, uint32_t a_row_tiles, uint32_t a_col0) {
  configure(x, ComputeOp::matmul, x.cb_a, x.cb_w);
  for (uint32_t kb = 0; kb < k_tiles / 8; ++kb) {
    cb_wait_front(x.cb_w, kKBlockPages);
    for (uint32_t k = 0; k < 8; ++k)
      for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t n = 0; n < 2; ++n)
          matmul_tiles(x.cb_a, x.cb_w, r * a_row_tiles + a_col0 + kb * 8 + k, k * 2 + n, r * 2 + n);
    cb_pop_front(x.cb_w, kKBlockPages);
  }
}

// A whole-K op on this core's 2 N tiles (qkv, ff1): bias, activation, 4 bf16 tiles into cb_mm0.
inline void full_k_op(Ctx& x, uint32_t a_row_tiles, Activation act) {
  cb_wait_front(x.cb_a, kCbAPages);
  tile_regs_acquire();
  stream_matmul(x, a_row_tiles, a_row_tiles, 0);
  cb_wait_front(x.cb_bias0, 2);
  for (uint32_t i = 0; i < 4; ++i) {
    add_row(x, x.cb_bias0, i % 2, i);
    activate(i, act);
  }
  finish_math();
  pack_range(x, x.cb_mm0, 0, 4);
  tile_regs_release();
  cb_pop_front(x.cb_bias0, 2);
  cb_pop_front(x.cb_a, kCbAPages);
}

// A K-split op (q, out, ff2): the 4 fp32 partial tiles into cb_scores.
inline void partial_op(Ctx& x, uint32_t k_tiles, uint32_t a_row_tiles, uint32_t a_col0) {
  cb_wait_front(x.cb_a, kCbAPages);
  tile_regs_acquire();
  stream_matmul(x, k_tiles, a_row_tiles, a_col0);
  finish_math();
  pack_range(x, x.cb_scores, 0, 4);
  tile_regs_release();
  cb_pop_front(x.cb_a, kCbAPages);
}

// Seed FF2: the four fp32 partials into cb_scores from the `chunks` [64, 1024] chunks of the FF1
// output arriving in cb_a (64-page windows), multiplying the part of each inside this core's K quarter.
inline void ff2_chunk_partials(Ctx& x, uint32_t chunks) {
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
  pack_range(x, x.cb_scores, 0, 4);
  tile_regs_release();
}

// ReLU has no DST op: relu(v) = (v + |v|) / 2 with |v| = sqrt(v * v), on the 2 fp32 tiles in
// cb_oacc; the result goes to cb_o as bf16.
inline void relu_tiles(Ctx& x) {
  cb_wait_front(x.cb_oacc, 2);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r) {
    binary(x, ComputeOp::mul, x.cb_oacc, x.cb_oacc, r, r, r);
    sqrt_dst(r);
  }
  finish_math();
  pack_range(x, x.cb_s, 0, 4);  // |v| and two zero tiles: cb_s moves in whole 4-page turns
  tile_regs_release();
  cb_wait_front(x.cb_s, 4);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r) {
    mm(x, x.cb_const, x.cb_s, kHalfIdentTile, r, r);
    mm(x, x.cb_const, x.cb_oacc, kHalfIdentTile, r, r);
  }
  finish_math();
  pack_range(x, x.cb_o, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_s, 4);
  cb_pop_front(x.cb_oacc, 2);
}

// A tail op on one N tile over the whole K from cb_tw: bias, activation, 2 bf16 tiles into cb_o.
inline void tail_op(Ctx& x, uint32_t k_tiles, uint32_t a_row_tiles, Activation act) {
  cb_wait_front(x.cb_a, kCbAPages);
  cb_wait_front(x.cb_tw, kTailPages);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t k = 0; k < k_tiles; ++k) mm(x, x.cb_a, x.cb_tw, r * a_row_tiles + k, k, r);
  cb_wait_front(x.cb_bias0, 2);
  for (uint32_t r = 0; r < 2; ++r) {
    add_row(x, x.cb_bias0, 0, r);
    activate(r, act);
  }
  finish_math();
  pack_range(x, act == Activation::relu ? x.cb_oacc : x.cb_o, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_bias0, 2);
  cb_pop_front(x.cb_tw, kTailPages);
  cb_pop_front(x.cb_a, kCbAPages);
  if (act == Activation::relu) relu_tiles(x);
}

// The encoder's last op: (acc + b3_pos) on the action rows, the state/future rows elsewhere.
inline void encoder_out_op(Ctx& x, uint32_t k_tiles) {
  cb_wait_front(x.cb_a, kCbAPages);
  cb_wait_front(x.cb_tw, kTailPages);
  cb_wait_front(x.cb_tconst, 6);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t k = 0; k < k_tiles; ++k) mm(x, x.cb_a, x.cb_tw, r * k_tiles + k, k, r);
    add_tile(x, x.cb_tconst, r, r);  // b3 + position rows
  }
  finish_math();
  pack_range(x, x.cb_oacc, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_tw, kTailPages);
  cb_pop_front(x.cb_a, kCbAPages);
  // action rows keep the encoder output, the others take the state / future token rows
  cb_wait_front(x.cb_oacc, 2);
  tile_regs_acquire();
  for (uint32_t r = 0; r < 2; ++r) {
    binary(x, ComputeOp::mul, x.cb_oacc, x.cb_tconst, r, 2 + r, r);
    add_tile(x, x.cb_tconst, 4 + r, r);
  }
  finish_math();
  pack_range(x, x.cb_o, 0, 2);
  tile_regs_release();
  cb_pop_front(x.cb_oacc, 2);
}

#endif  // defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
