#pragma once
// The compute half of the DiT kernel (TRISC): streamed matmuls, the epilogues (bias, activation,
// fp32 partials), distributed LayerNorm / AdaLN of the core's own tile, head attention with the
// additive masks, the residual update and the hub's Euler step. Every sum is an fp32 DST
// accumulation: tiles are added into DST as matmuls by the identity (exact), biases as matmuls of
// the column-0 tile by a row-broadcast tile.
#include <cstdint>

#include "ditmk/tt/kernel/kernel_context.hpp"

namespace ditmk::tt::kernel {

enum class Activation { none, relu, silu, gelu };

// DST[r * 2 + n] += A(r, a_col0 + k) x W(k, n) over `k_tiles` K tiles streamed through cb_w;
// A is cb_a with `a_row_tiles` tiles per row.
void stream_matmul(Ctx& x, uint32_t k_tiles, uint32_t a_row_tiles, uint32_t a_col0);

// A whole-K op on this core's 2 N tiles (qkv, ff1): bias, activation, 4 bf16 tiles into cb_mm0.
void full_k_op(Ctx& x, uint32_t a_row_tiles, Activation act);
// A K-split op (q, out, ff2): the 4 fp32 partial tiles into cb_scores.
void partial_op(Ctx& x, uint32_t k_tiles, uint32_t a_row_tiles, uint32_t a_col0);
// Seed FF2: the four fp32 partials into cb_scores from the `chunks` [64, 1024] chunks of the FF1
// output arriving in cb_a (64-page windows), multiplying the part of each inside this core's K quarter.
void ff2_chunk_partials(Ctx& x, uint32_t chunks);
// The K core of a head: its 4 K tiles in cb_mm0 (row tile r, column tile d at r * 2 + d) replaced
// by the K^T tiles attention multiplies by (d * 2 + r).
void transpose_head_k(Ctx& x);
// A tail op on one N tile over the whole K from cb_tw: bias, activation, 2 bf16 tiles into cb_o.
void tail_op(Ctx& x, uint32_t k_tiles, uint32_t a_row_tiles, Activation act);
// The encoder's last op: (acc + b3_pos) on the action rows, the state/future rows elsewhere.
void encoder_out_op(Ctx& x, uint32_t k_tiles);

// Q_h from the three K-third partials in cb_part plus the bias, as 4 bf16 tiles into cb_q.
void assemble_q(Ctx& x);
// Attention of head h over chunks [first, end) of 64 keys with a running maximum: leaves the
// unnormalised part (m in cb_m0, l in cb_l0, O in cb_oacc, both tile rows) on the core.
void attention_part(Ctx& x, uint32_t q_cb, uint32_t first_chunk, uint32_t end_chunk);
// O_h = softmax(Q K^T + mask) V over all `chunks` on this core; 4 bf16 tiles into cb_o.
void head_attention(Ctx& x, uint32_t q_cb, uint32_t chunks);
// Split key sets: the part cores stage (m, l, O) as 2 x 4 fp32 tiles in cb_scores for the
// exchange; the head core merges the two remote parts in cb_part with its own and normalises.
void stage_part(Ctx& x);
void merge_parts(Ctx& x);
// x_(row,col) + the 4 partials in cb_part + bias: packed into cb_h for a residual round, or
// (`in_place`) into cb_x as this core's only tile.
void residual_update(Ctx& x, bool in_place);
// LayerNorm of the row in cb_x (fp32 statistics), this core's tile normalised, optionally
// modulated by the (1 + scale, shift) tiles in cb_adaln_raw, packed into cb_h.
void layer_norm_own_tile(Ctx& x, bool modulate, uint32_t eps_cb, uint32_t eps_tile);
// Seed: this core's share of its tile row's LayerNorm statistics, the sums of x and of x^2 over its
// own tile's 32 columns, as two fp32 tiles (every row holding the 32 token rows' sums) at the front
// of a 4-page cb_scores window.
void layer_norm_partial_stats(Ctx& x);
// Seed: the same LayerNorm from the 48 partials of the tile row that the statistics round left in
// cb_part (per tile row: sums of x for cores 0-31, 32-47, sums of x^2 likewise).
void layer_norm_from_stats(Ctx& x, bool modulate, uint32_t eps_cb, uint32_t eps_tile);

// Hub: x_t (cb_act, fp32) -> bf16 into cb_xin, and x_t += dt * v with v in cb_land, the new state
// rounded to bf16 (through cb_xbf) when `round_bf16`.
void hub_state_to_bf16(Ctx& x);
void hub_euler_update(Ctx& x, bool round_bf16);

}  // namespace ditmk::tt::kernel
