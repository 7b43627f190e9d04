#pragma once
// The Tenstorrent 32x32 tile: its element order and the storage formats a tile can take.
//
// Tile order: a tile is four 16x16 faces (top-left, top-right, bottom-left, bottom-right) stored
// one after another, each face row-major. The compute engines consume a face at a time, so this is
// the order the device holds every tile in, whatever its format.
#include <cstddef>
#include <string_view>
#include <vector>

namespace ditmk::format {

constexpr int kTile = 32;
constexpr int kFace = 16;
constexpr int kTileElems = kTile * kTile;
constexpr int kFaceElems = kFace * kFace;

enum class TileFormat { bf16, bfp8_b, fp32 };

// Bytes one tile takes in L1/DRAM: 2048 (bf16), 1088 (bfp8_b), 4096 (fp32).
std::size_t tile_bytes(TileFormat format);
std::string_view tile_format_name(TileFormat format);
// Accepts exactly the names tile_format_name gives; throws ditmk::Error naming the bad value.
TileFormat parse_tile_format(std::string_view name);

// Position in tile order of element (row, col) of a 32x32 tile.
constexpr int tile_index(int row, int col) {
  int face = (row / kFace) * 2 + (col / kFace);
  return face * kFaceElems + (row % kFace) * kFace + (col % kFace);
}

// One 32x32 block of a row-major matrix with leading dimension ld <-> 1024 values in tile order.
void tilize_tile(const float* src, std::size_t ld, float* tile);
void untilize_tile(const float* tile, float* dst, std::size_t ld);

// A row-major [rows, cols] matrix (both multiples of 32) <-> its tiles, tile (i, j) at position
// i * (cols / 32) + j. Throws ditmk::Error when a dimension is not a positive multiple of 32.
std::vector<float> tilize(const float* src, int rows, int cols);
std::vector<float> untilize(const float* tiles, int rows, int cols);

}  // namespace ditmk::format
