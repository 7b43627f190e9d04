#pragma once
// Which arena op a core streams and where its slice lies, computed from the structure args as the
// device kernel computes it: the plan's ownership rules (docs/plan.md, "Op ownership") as a pure
// function of the op, the core and the widths, with nothing from the host but the op's region
// offset (the offsets table of the common args). The plan's ArenaLayout holds the same slices; a
// test compares the two for every version, variant and stream format.
//
// Freestanding on purpose (no library beyond <stdint.h>): the kernel in tt-metal's dialect
// includes it as it is.
#include <stdint.h>

namespace ditmk::tt::kernel {

// The four stream ops of every DiT block, in arena order.
enum class BlockOp : uint32_t {
  attn_in = 0,  // q of a cross block (K / V are hoisted), qkv of a self block
  out = 1,
  ff1 = 2,
  ff2 = 3,
};
// The small arena's ops, in arena order: proj_out_2 in every variant, the rest in steps4 only.
enum class TailOp : uint32_t { proj_out_2 = 0, dec1 = 1, dec2 = 2, enc1 = 3, enc2a = 4, enc3 = 5 };

inline constexpr uint32_t kArenaBanks = 8;   // a core streams from bank compute_idx % 8
inline constexpr uint32_t kSliceNTiles = 2;  // N tiles of a stream op per core
inline constexpr uint32_t kKBlockK = 8;      // K tiles of one cb_w K-block

// The widths the slices follow, from the structure named args.
struct ArenaDims {
  uint32_t n_blocks = 0, width = 0, ff_dim = 0, out_dim = 0, hidden = 0, a_pad = 0, n_heads = 0, head_dim_pad = 0;
  uint32_t stream_tile_bytes = 0, small_tile_bytes = 0;
};

// `named(name)` gives a named compile-time arg; constexpr, so the kernel evaluates it at compile time.
template <typename Named>
constexpr ArenaDims arena_dims(Named named) {
  ArenaDims d;
  d.n_blocks = named("n_blocks"), d.width = named("width"), d.ff_dim = named("ff_dim");
  d.out_dim = named("out_dim"), d.hidden = named("hidden"), d.a_pad = named("a_pad");
  d.n_heads = named("n_heads"), d.head_dim_pad = named("head_dim_pad");
  d.stream_tile_bytes = named("stream_tile_bytes"), d.small_tile_bytes = named("small_tile_bytes");
  return d;
}

struct OpSlice {
  uint32_t op_index = 0;       // the op's entry of the offsets table
  uint32_t bank = 0;           // the DRAM bank the slice lies in
  uint32_t offset = 0;         // from the start of the op's region in that bank
  uint32_t bytes = 0;
  uint32_t k_tiles = 0;
  uint32_t k_block_bytes = 0;  // stream ops: one cb_w K-block; tail ops: the whole slice
};

// A stream op's slice on compute core c: qkv and ff1 give every core 2 N tiles and the whole K; q
// gives head h's 2 tiles to cores h, 32 + h, 64 + h, a K third each; out and ff2 give each column
// pair to four cores, a K quarter each. The 96 slices of an op lie bank-major: core c in bank c % 8,
// slot c / 8.
inline OpSlice block_op_slice(const ArenaDims& d, uint32_t block, BlockOp op, bool cross, uint32_t c) {
  uint32_t k_total = d.width / 32, split = 1;
  switch (op) {
    case BlockOp::attn_in: split = cross ? 3 : 1; break;
    case BlockOp::out: k_total = d.n_heads * d.head_dim_pad / 32, split = 4; break;
    case BlockOp::ff1: break;
    case BlockOp::ff2: k_total = d.ff_dim / 32, split = 4; break;
  }
  OpSlice s;
  s.op_index = 4 * block + uint32_t(op);
  s.k_tiles = k_total / split;
  s.bytes = s.k_tiles * kSliceNTiles * d.stream_tile_bytes;
  s.bank = c % kArenaBanks;
  s.offset = (c / kArenaBanks) * s.bytes;
  s.k_block_bytes = kKBlockK * kSliceNTiles * d.stream_tile_bytes;
  return s;
}

// A tail op's K and N in tiles; it runs on compute cores 0 .. N tiles - 1, one N tile each.
inline uint32_t tail_k_tiles(const ArenaDims& d, TailOp op) {
  switch (op) {
    case TailOp::proj_out_2: return d.width / 32;
    case TailOp::dec1: return d.out_dim / 32;
    case TailOp::dec2: return d.hidden / 32;
    case TailOp::enc1: return d.a_pad / 32;
    case TailOp::enc2a:
    case TailOp::enc3: return d.width / 32;
  }
  return 0;
}
inline uint32_t tail_n_tiles(const ArenaDims& d, TailOp op) {
  switch (op) {
    case TailOp::proj_out_2: return d.out_dim / 32;
    case TailOp::dec1: return d.hidden / 32;
    case TailOp::dec2: return d.a_pad / 32;
    case TailOp::enc1:
    case TailOp::enc2a:
    case TailOp::enc3: return d.width / 32;
  }
  return 0;
}

inline OpSlice tail_op_slice(const ArenaDims& d, TailOp op, uint32_t c) {
  OpSlice s;
  s.op_index = 4 * d.n_blocks + uint32_t(op);
  s.k_tiles = tail_k_tiles(d, op);
  s.bytes = s.k_tiles * d.small_tile_bytes;
  s.bank = c % kArenaBanks;
  s.offset = (c / kArenaBanks) * s.bytes;
  s.k_block_bytes = s.bytes;
  return s;
}

}  // namespace ditmk::tt::kernel
