#include "ditmk/tt/kernel/tile_builders.hpp"

#include "ditmk/core/dtype.hpp"
#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::kernel {

namespace {

Bf16Tile from_predicate(auto one_at) {
  Bf16Tile tile{};
  const uint16_t one = f32_to_bf16(1.0f);
  for (int r = 0; r < kTile; ++r)
    for (int c = 0; c < kTile; ++c) tile[tile_index(r, c)] = one_at(r, c) ? one : 0;
  return tile;
}

}  // namespace

Bf16Tile row_tile(const uint16_t* row) {
  Bf16Tile tile{};
  for (int r = 0; r < kTile; ++r)
    for (int c = 0; c < kTile; ++c) tile[tile_index(r, c)] = row[c];
  return tile;
}

Bf16Tile identity_tile(float scale) {
  Bf16Tile tile{};
  for (int r = 0; r < kTile; ++r) tile[tile_index(r, r)] = f32_to_bf16(scale);
  return tile;
}

Bf16Tile ones_tile() {
  return from_predicate([](int, int) { return true; });
}

Bf16Tile column0_tile() {
  return from_predicate([](int, int c) { return c == 0; });
}

Bf16Tile row_range_tile(int row0, int row1) {
  return from_predicate([&](int r, int) { return r >= row0 && r < row1; });
}

Fp32Tile filled_fp32_tile(float value) {
  Fp32Tile tile;
  tile.fill(value);
  return tile;
}

Bf16Tile unit_tile(int row, int col) {
  return from_predicate([&](int r, int c) { return r == row && c == col; });
}

Bf16Tile column_fill_tile(int open_cols, float value) {
  Bf16Tile tile{};
  for (int r = 0; r < kTile; ++r)
    for (int c = open_cols; c < kTile; ++c) tile[tile_index(r, c)] = f32_to_bf16(value);
  return tile;
}

}  // namespace ditmk::tt::kernel
