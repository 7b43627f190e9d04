#pragma once
// What the data movers build in a core's own L1: row-broadcast tiles of 32 bf16 values read from
// row-major DRAM tables (bias, AdaLN, masks), tiles whose rows come from scattered table rows,
// constant tiles written into a CB window, and copies inside the core through its own NoC port.
#include <stdint.h>

#include "core_context.hpp"
#include "masked_score.hpp"
#include "small_list.hpp"
#include "tile_builders.hpp"

namespace ditmk::tt::kernel {

// The data movers' side: tt-metal's JIT builds the dataflow API for BRISC and NCRISC only.
#if !defined(COMPILE_FOR_TRISC)

using TileList = SmallList<Bf16Tile, 6>;     // tiles a mover builds for one CB window
using IndexPairs = SmallList<IndexPair, 4>;  // table rows and column tiles; contributed pages

inline constexpr uint32_t kRowChunkBytes = 64;  // 32 bf16 values: one column tile of a table row

// Row-broadcast tiles of 32 bf16 values each, at (row, column tile) of a row-major DRAM table: the
// reads go out together into cb_bias1's space and wait for one barrier.
inline TileList read_row_tiles(const Ctx& x, uint32_t table, uint32_t row_bytes, const IndexPairs& rows_and_col_tiles) {
  const uint32_t scratch = get_write_ptr(x.cb_bias1);
  const InterleavedAddrGen<true> rows = {.bank_base_address = table, .page_size = row_bytes};
  for (uint32_t i = 0; i < rows_and_col_tiles.size(); ++i) {
    const IndexPair at = rows_and_col_tiles[i];
    noc_async_read(rows.get_noc_addr(at.first, at.second * kRowChunkBytes), scratch + i * kRowChunkBytes,
                   kRowChunkBytes);
  }
  noc_async_read_barrier();
  TileList tiles;
  for (uint32_t i = 0; i < rows_and_col_tiles.size(); ++i) {
    tiles.push_back(row_tile(static_cast<const uint16_t*>(l1_bytes(scratch + i * kRowChunkBytes))));
    pointer_l1_bytes(kRowChunkBytes);
  }
  return tiles;
}

// A tile whose row i comes from DRAM row rows[i] (or is zero where rows[i] < 0).
inline Bf16Tile read_rows_tile(const Ctx& x, uint32_t table, uint32_t row_bytes, const int* rows, uint32_t col_tile) {
  const uint32_t scratch = get_write_ptr(x.cb_bias1);
  const InterleavedAddrGen<true> gen = {.bank_base_address = table, .page_size = row_bytes};
  Bf16Tile tile{};
  for (int r = 0; r < 32; ++r) {
    if (rows[r] < 0) continue;
    noc_async_read(gen.get_noc_addr(uint32_t(rows[r]), col_tile * kRowChunkBytes), scratch, kRowChunkBytes);
    noc_async_read_barrier();
    const uint16_t* values = static_cast<const uint16_t*>(l1_bytes(scratch));
    for (int c = 0; c < 32; ++c) tile[tile_index(r, c)] = values[c];
    pointer_l1_bytes(kRowChunkBytes);
  }
  return tile;
}

// Reserves `window` pages of cb, writes the tiles at its front, pushes the window.
inline void push_tiles(uint32_t cb, const TileList& tiles, uint32_t window) {
  cb_reserve_back(cb, window);
  for (uint32_t i = 0; i < tiles.size(); ++i) {
    __builtin_memcpy(l1_bytes(get_write_ptr(cb) + i * kBf16TileBytes), tiles[i].data(), kBf16TileBytes);
    pointer_l1_bytes(kBf16TileBytes);
  }
  cb_push_back(cb, window);
}

// Copies bytes inside this core's L1 through its own NoC port (a data mover does not copy by hand).
inline void local_copy(uint32_t src_l1, uint32_t dst_l1, uint32_t bytes) {
  noc_async_read(get_noc_addr(my_x[noc_index], my_y[noc_index], src_l1), dst_l1, bytes);
  noc_async_read_barrier();
}

// Reserves cb, fills a tile with each value and pushes them.
inline void write_fp32_tiles(uint32_t cb, const SmallList<float, 2>& values) {
  cb_reserve_back(cb, values.size());
  for (uint32_t i = 0; i < values.size(); ++i) {
    const Fp32Tile tile = filled_fp32_tile(values[i]);
    __builtin_memcpy(l1_bytes(get_write_ptr(cb) + i * kFp32TileBytes), tile.data(), kFp32TileBytes);
    pointer_l1_bytes(kFp32TileBytes);
  }
  cb_push_back(cb, values.size());
}

// BRISC at start, compute cores: the constant tiles the compute processor multiplies by.
inline void setup_constants(const Ctx& x) {
  push_tiles(x.cb_const, {identity_tile(), identity_tile(0.5f), column0_tile()}, 3);
  push_tiles(x.cb_ones, {ones_tile()}, 1);
  // attention's running maximum: moves of a row-max column and the fill that keeps other columns out
  push_tiles(x.cb_kt, {unit_tile(0, 1), unit_tile(0, 2), column_fill_tile(2, kMaskedScore),
                       column_fill_tile(3, kMaskedScore)}, 4);
  write_fp32_tiles(x.cb_stat, {1.0f / float(x.dims.width), 1e-5f});  // 1/D, the blocks' LayerNorm eps
  write_fp32_tiles(x.cb_stat32, {1e-6f});                          // the output head's eps
}

#endif  // !defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
