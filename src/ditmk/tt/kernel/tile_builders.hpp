#pragma once
// Tiles the data movers build in their own memory before they copy them into a CB: row-broadcast
// tiles of a 32-value row (bias, AdaLN, mask rows) and the constant tiles the compute processor
// uses as matmul operands. All in the device tile order (four 16x16 faces), bf16 rounded to nearest
// even as the host's codecs round (a test compares both).
//
// Freestanding on purpose (no library beyond <stdint.h>): the kernel in tt-metal's dialect
// includes it as it is.
#include <stdint.h>

namespace ditmk::tt::kernel {

inline constexpr uint32_t kBf16TileBytes = 2048;
inline constexpr uint32_t kFp32TileBytes = 4096;
inline constexpr int kTileDim = 32;

template <typename T>
struct TileOf {
  T v[1024] = {};
  T& operator[](int i) { return v[i]; }
  const T& operator[](int i) const { return v[i]; }
  T* data() { return v; }
  const T* data() const { return v; }
};
using Bf16Tile = TileOf<uint16_t>;
using Fp32Tile = TileOf<float>;

// Position in tile order of element (row, col).
inline constexpr int tile_index(int row, int col) {
  return ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16;
}

// fp32 -> bf16, round to nearest even; a NaN stays a (quiet) NaN.
inline uint16_t to_bf16(float value) {
  uint32_t bits = __builtin_bit_cast(uint32_t, value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return uint16_t((bits >> 16) | 0x0040u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

template <typename OneAt>
Bf16Tile from_predicate(OneAt one_at) {
  Bf16Tile tile;
  const uint16_t one = to_bf16(1.0f);
  for (int r = 0; r < kTileDim; ++r)
    for (int c = 0; c < kTileDim; ++c) tile[tile_index(r, c)] = one_at(r, c) ? one : 0;
  return tile;
}

// Every row of the tile holds `row` (32 bf16 values).
inline Bf16Tile row_tile(const uint16_t* row) {
  Bf16Tile tile;
  for (int r = 0; r < kTileDim; ++r)
    for (int c = 0; c < kTileDim; ++c) tile[tile_index(r, c)] = row[c];
  return tile;
}

// `scale` on the diagonal.
inline Bf16Tile identity_tile(float scale = 1.0f) {
  Bf16Tile tile;
  for (int r = 0; r < kTileDim; ++r) tile[tile_index(r, r)] = to_bf16(scale);
  return tile;
}

inline Bf16Tile ones_tile() {
  return from_predicate([](int, int) { return true; });
}

inline Bf16Tile column0_tile() {
  return from_predicate([](int, int c) { return c == 0; });
}

// Rows [row0, row1) of the tile 1.0, the others 0.
inline Bf16Tile row_range_tile(int row0, int row1) {
  return from_predicate([&](int r, int) { return r >= row0 && r < row1; });
}

inline Fp32Tile filled_fp32_tile(float value) {
  Fp32Tile tile;
  for (float& x : tile.v) x = value;
  return tile;
}

// 1.0 at (row, col) only: as a matmul B operand it moves column `row` of A to column `col`.
inline Bf16Tile unit_tile(int row, int col) {
  return from_predicate([&](int r, int c) { return r == row && c == col; });
}

// 0 in columns [0, open_cols), `value` in the others.
inline Bf16Tile column_fill_tile(int open_cols, float value) {
  Bf16Tile tile;
  for (int r = 0; r < kTileDim; ++r)
    for (int c = open_cols; c < kTileDim; ++c) tile[tile_index(r, c)] = to_bf16(value);
  return tile;
}

}  // namespace ditmk::tt::kernel
