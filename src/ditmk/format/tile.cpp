#include "ditmk/format/tile.hpp"

#include <cstring>

#include "ditmk/core/error.hpp"

namespace ditmk::format {

std::size_t tile_bytes(TileFormat format) {
  switch (format) {
    case TileFormat::bf16: return kTileElems * 2;
    // One shared exponent byte per 16-value face row (64 rows) plus one byte per value.
    case TileFormat::bfp8_b: return kTileElems / kFace + kTileElems;
    case TileFormat::fp32: return kTileElems * 4;
  }
  fail("tile format {} is not a TileFormat", int(format));
}

std::string_view tile_format_name(TileFormat format) {
  switch (format) {
    case TileFormat::bf16: return "bf16";
    case TileFormat::bfp8_b: return "bfp8_b";
    case TileFormat::fp32: return "fp32";
  }
  fail("tile format {} is not a TileFormat", int(format));
}

TileFormat parse_tile_format(std::string_view name) {
  for (TileFormat format : {TileFormat::bf16, TileFormat::bfp8_b, TileFormat::fp32}) {
    if (name == tile_format_name(format)) return format;
  }
  fail("tile format '{}' is not one of bf16, bfp8_b, fp32", name);
}

// Each face row is 16 contiguous values on both sides, so the copies go row by row.
void tilize_tile(const float* src, std::size_t ld, float* tile) {
  for (int row = 0; row < kTile; ++row) {
    for (int half = 0; half < 2; ++half) {
      std::memcpy(tile + tile_index(row, half * kFace), src + row * ld + half * kFace,
                  kFace * sizeof(float));
    }
  }
}

void untilize_tile(const float* tile, float* dst, std::size_t ld) {
  for (int row = 0; row < kTile; ++row) {
    for (int half = 0; half < 2; ++half) {
      std::memcpy(dst + row * ld + half * kFace, tile + tile_index(row, half * kFace),
                  kFace * sizeof(float));
    }
  }
}

namespace {

void require_tiled_shape(int rows, int cols) {
  require(rows > 0 && rows % kTile == 0, "matrix rows {} is not a positive multiple of {}", rows,
          kTile);
  require(cols > 0 && cols % kTile == 0, "matrix cols {} is not a positive multiple of {}", cols,
          kTile);
}

}  // namespace

std::vector<float> tilize(const float* src, int rows, int cols) {
  require_tiled_shape(rows, cols);
  std::vector<float> tiles(std::size_t(rows) * cols);
  const int tile_cols = cols / kTile;
  for (int i = 0; i < rows / kTile; ++i) {
    for (int j = 0; j < tile_cols; ++j) {
      const float* block = src + std::size_t(i) * kTile * cols + std::size_t(j) * kTile;
      tilize_tile(block, cols, tiles.data() + (std::size_t(i) * tile_cols + j) * kTileElems);
    }
  }
  return tiles;
}

std::vector<float> untilize(const float* tiles, int rows, int cols) {
  require_tiled_shape(rows, cols);
  std::vector<float> matrix(std::size_t(rows) * cols);
  const int tile_cols = cols / kTile;
  for (int i = 0; i < rows / kTile; ++i) {
    for (int j = 0; j < tile_cols; ++j) {
      float* block = matrix.data() + std::size_t(i) * kTile * cols + std::size_t(j) * kTile;
      untilize_tile(tiles + (std::size_t(i) * tile_cols + j) * kTileElems, block, cols);
    }
  }
  return matrix;
}

}  // namespace ditmk::format
