#pragma once
// The loop nest every ISA's GEMM shares. Only the inner pieces differ per ISA and come from a Micro
// policy type: how a block of weights is made ready, the register tile, and the epilogue of a row.
//
//   for each 32-column panel in [n_begin, n_end):
//     for each block of args.blocking.k_block rows of K:
//       ready the block: a pointer into the packed panel, or (bfp8_b, or bf16 on ISAs without a
//       bf16 dot product) decoded into a small buffer on the stack
//       for each tile of at most Micro::kTileRows rows of x: acc[tile] += x[tile, block] * block
//     epilogue over the panel's M x 32 accumulators: bias, activation, store or add into y
//
// A block is args.blocking.k_block rows x 32 columns (gemm_blocking.hpp): where the tiles read it in
// place, sized so that it and the call's x over its K rows stay in L2 (the first tile streams it,
// the others find it there; the whole panel where everything fits), otherwise sized to the
// machine's L1D so that it stays there, beside the blocks prefetched ahead of it, while every row
// tile reuses it. Either way each weight byte leaves DRAM once per call and is
// decoded once per call; the M x 32 fp32 accumulators (8 KiB at M = 64) stay in L1 between blocks.
//
// This header is included by one file per ISA and compiled with that file's instruction set, so
// everything here has internal linkage: no two ISAs may share (and the linker merge) one copy.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "ditmk/cpu/kernels/gemm.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"
#include "ditmk/cpu/kernels/int8_block.hpp"

namespace ditmk::cpu::detail {
namespace {

// Cache lines of a coming weight block a tile asks for while it computes, one per inner iteration
// (any left over after the loop at its end): spread over the row tiles, the DRAM reads for block
// b + prefetch_blocks overlap the arithmetic on block b, and one request per iteration never piles
// up more misses than the L1 can track. Measured on the model's cold M = 49 products: ~10-15%
// faster than asking for all of the next block at the start of each tile. How many blocks ahead:
// kGemmPrefetchBlocks (gemm_blocking.hpp).
struct Prefetch {
  const char* first = nullptr;
  int64_t lines = 0;

  void issue(int64_t i) const {
    if (i < lines) __builtin_prefetch(first + i * 64, 0, 3);
  }
  void issue_rest(int64_t from) const {
    for (int64_t i = from; i < lines; ++i) issue(i);
  }
};

// Micro::tile<R> for R = rows, found by walking down from the widest tile (rows >= 1).
template <class Micro, int R = Micro::kTileRows>
void run_tile(int64_t rows, const typename Micro::XElem* x, int64_t x_stride,
              const typename Micro::BlockElem* block, int64_t k_count, float* acc, bool first, Prefetch next) {
  if constexpr (R > 1) {
    if (rows < R) return run_tile<Micro, R - 1>(rows, x, x_stride, block, k_count, acc, first, next);
  }
  Micro::template tile<R>(x, x_stride, block, k_count, acc, first, next);
}

// Share t of `tiles` of the cache lines of the block after the one at `offset`, none past the end of
// the weights.
inline Prefetch prefetch_share(const PackedWeights& w, std::size_t offset, std::size_t block_bytes, int64_t blocks_ahead,
                               int64_t t, int64_t tiles) {
  const std::size_t next = offset + std::size_t(blocks_ahead) * block_bytes;
  if (next >= w.bytes()) return {};
  const int64_t lines = int64_t(std::min(block_bytes, w.bytes() - next) / 64);
  const int64_t begin = lines * t / tiles, end = lines * (t + 1) / tiles;
  return {reinterpret_cast<const char*>(w.panel(0)) + next + begin * 64, end - begin};
}

// x: the prepared rows (the caller's fp32 x, x rounded to bf16 in the policy's element type, or
// int8 blocks of Micro::kKPerX values each, zero-padded to k_padded); x_stride in elements;
// k_extent: how many K rows the tiles walk (K, or k_padded for padded x).
template <class Micro>
void run_gemm(const GemmArgs& args, const typename Micro::XElem* x, int64_t x_stride, int64_t k_extent) {
  const PackedWeights& w = *args.weights;
  alignas(64) float acc[kGemmMaxRows * kPanelWidth];
  alignas(64) typename Micro::BlockElem buffer[Micro::kBufferElems];
  const int64_t tiles = (args.m + Micro::kTileRows - 1) / Micro::kTileRows;
  const int64_t k_block = args.blocking.k_block;
  // Blocks lie back to back in memory (panels too), so the next ones start whole block lengths on.
  const std::size_t row_bytes = w.panel_bytes() / std::size_t(w.k_padded());
  const std::size_t block_bytes = row_bytes * std::size_t(std::min(k_block, w.k_padded()));
  for (int64_t panel = args.n_begin / kPanelWidth; panel * kPanelWidth < args.n_end; ++panel) {
    for (int64_t k0 = 0; k0 < k_extent; k0 += k_block) {
      const int64_t k_count = std::min(k_block, k_extent - k0);
      const typename Micro::BlockElem* block = Micro::weight_block(w, panel, k0, k_count, buffer);
      const std::size_t offset = std::size_t(panel) * w.panel_bytes() + row_bytes * std::size_t(k0);
      int64_t row = 0;
      for (int64_t t = 0; t < tiles; ++t) {
        const int64_t rows = (args.m - row + (tiles - t) - 1) / (tiles - t);  // balanced tile heights
        run_tile<Micro>(rows, x + row * x_stride + k0 / Micro::kKPerX, x_stride, block, k_count, acc + row * kPanelWidth, k0 == 0,
                        prefetch_share(w, offset, block_bytes, args.blocking.prefetch_blocks, t, tiles));
        row += rows;
      }
    }
    const int64_t c0 = std::max(args.n_begin, panel * kPanelWidth);
    const int64_t c1 = std::min(args.n_end, panel * kPanelWidth + kPanelWidth);
    for (int64_t r = 0; r < args.m; ++r) {
      Micro::epilogue_row(acc + r * kPanelWidth + (c0 - panel * kPanelWidth), args.bias ? args.bias + c0 : nullptr,
                          args.y + r * args.y_stride + c0, c1 - c0, args.activation, args.output);
    }
  }
}

// Weight rows [k0, k0 + k_count) of a packed panel as a pointer of the policy's element type, for
// formats the tile reads in place.
template <typename T>
const T* packed_rows(const PackedWeights& w, int64_t panel, int64_t k0) {
  return reinterpret_cast<const T*>(w.panel(panel)) + k0 * kPanelWidth;
}

// The bfp8_b group blocks (32 exponents + 8 k pairs x 32 columns of int8) covering rows k0...
inline const uint8_t* bfp8_groups(const PackedWeights& w, int64_t panel, int64_t k0) {
  return reinterpret_cast<const uint8_t*>(w.panel(panel)) + std::size_t(k0 / kKAlign) * PackedWeights::kBfp8GroupBytes;
}

// The int8 blocks (scales, corrections, 8 k quads x 32 columns) covering rows k0...
inline const uint8_t* int8_groups(const PackedWeights& w, int64_t panel, int64_t k0) {
  return reinterpret_cast<const uint8_t*>(w.panel(panel)) + std::size_t(k0 / kInt8Block) * PackedWeights::kInt8GroupBytes;
}

// What every int8 micro-kernel shares: x as rows of Int8XBlock, weight blocks read in place.
struct Int8MicroBase {
  using XElem = Int8XBlock;
  using BlockElem = uint8_t;
  static constexpr int64_t kKPerX = kInt8Block;
  static constexpr int64_t kBufferElems = 1;

  static const uint8_t* weight_block(const PackedWeights& w, int64_t panel, int64_t k0, int64_t, uint8_t*) {
    return int8_groups(w, panel, k0);
  }
};

// An int8 GEMM call of any dot product: x quantized by the ISA's `quantize` into the scratch unless
// the caller prepared it, then the loop nest over the Int8XBlock rows.
template <class Micro>
void run_int8_gemm(const GemmArgs& args, void (*quantize)(const GemmArgs&, KRange)) {
  const PackedWeights& w = *args.weights;
  if (!args.x_prepared) quantize(args, KRange::all(w));
  run_gemm<Micro>(args, reinterpret_cast<const Int8XBlock*>(args.scratch), int8_row_stride(w), w.k_padded());
}

// 4 bytes of x (one k quad) in every 32-bit lane of a GCC vector of int32: what one vpdpbusd lane
// multiplies with one weight column.
template <typename I32xN>
I32xN broadcast_quad(const uint8_t* p) {
  int32_t bits;
  std::memcpy(&bits, p, sizeof bits);
  return I32xN{} + bits;
}

}  // namespace
}  // namespace ditmk::cpu::detail
