#include <gtest/gtest.h>

#include <vector>

#include "ditmk/core/error.hpp"
#include "ditmk/core/rng.hpp"
#include "ditmk/format/tile.hpp"

namespace ditmk::format {
namespace {

std::vector<float> random_matrix(int rows, int cols, uint64_t seed) {
  CounterRng rng(seed, 0);
  std::vector<float> matrix(std::size_t(rows) * cols);
  for (std::size_t i = 0; i < matrix.size(); ++i) matrix[i] = float(rng.normal(i));
  return matrix;
}

TEST(TileFormat, SizesAndNames) {
  EXPECT_EQ(tile_bytes(TileFormat::bf16), 2048u);
  EXPECT_EQ(tile_bytes(TileFormat::bfp8_b), 1088u);
  EXPECT_EQ(tile_bytes(TileFormat::fp32), 4096u);
  for (TileFormat format : {TileFormat::bf16, TileFormat::bfp8_b, TileFormat::fp32}) {
    EXPECT_EQ(parse_tile_format(tile_format_name(format)), format);
  }
  EXPECT_EQ(tile_format_name(TileFormat::bfp8_b), "bfp8_b");
}

TEST(TileFormat, ParseRejectsUnknownNameAndNamesIt) {
  try {
    parse_tile_format("bfp8");
    FAIL() << "bfp8 was accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("'bfp8'"), std::string::npos) << error.what();
  }
  EXPECT_THROW(parse_tile_format("BF16"), Error);
  EXPECT_THROW(parse_tile_format(""), Error);
}

TEST(Tilize, ElementPositionsFollowFaceOrder) {
  // Face 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right, each 256 values row-major.
  EXPECT_EQ(tile_index(0, 0), 0);
  EXPECT_EQ(tile_index(0, 15), 15);
  EXPECT_EQ(tile_index(1, 0), 16);
  EXPECT_EQ(tile_index(0, 16), 256);
  EXPECT_EQ(tile_index(15, 15), 255);
  EXPECT_EQ(tile_index(5, 20), 340);
  EXPECT_EQ(tile_index(16, 0), 512);
  EXPECT_EQ(tile_index(16, 16), 768);
  EXPECT_EQ(tile_index(31, 31), 1023);

  // A 64x96 matrix is 2x3 tiles; element value r * 1000 + c tells where it came from.
  const int rows = 64, cols = 96;
  std::vector<float> matrix(rows * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) matrix[r * cols + c] = float(r * 1000 + c);
  }
  const std::vector<float> tiles = tilize(matrix.data(), rows, cols);
  EXPECT_EQ(tiles[0], 0.0f);
  EXPECT_EQ(tiles[16], 1000.0f);            // (1, 0): second row of face 0
  EXPECT_EQ(tiles[256], 16.0f);             // (0, 16): first value of face 1
  EXPECT_EQ(tiles[1024], 32.0f);            // tile (0, 1) starts at column 32
  EXPECT_EQ(tiles[3 * 1024], 32000.0f);     // tile (1, 0) starts at row 32
  EXPECT_EQ(tiles[5 * 1024 + 22], 33070.0f);   // (33, 70): tile (1, 2), face 0, row 1, col 6
  EXPECT_EQ(tiles[5 * 1024 + 511], 47095.0f);  // (47, 95): tile (1, 2), face 1, row 15, col 15
  EXPECT_EQ(tiles[2 * 1024 + 512], 16064.0f);  // (16, 64): tile (0, 2), first value of face 2
}

TEST(Tilize, TileAndMatrixAreExactInverses) {
  for (auto [rows, cols] : {std::pair{32, 32}, std::pair{96, 64}, std::pair{64, 160}}) {
    const std::vector<float> matrix = random_matrix(rows, cols, 17 + rows + cols);
    const std::vector<float> tiles = tilize(matrix.data(), rows, cols);
    EXPECT_NE(tiles, matrix);
    EXPECT_EQ(untilize(tiles.data(), rows, cols), matrix);
    const std::vector<float> other_tiles = random_matrix(rows, cols, 99 + rows);
    const std::vector<float> other_matrix = untilize(other_tiles.data(), rows, cols);
    EXPECT_EQ(tilize(other_matrix.data(), rows, cols), other_tiles);
  }
}

TEST(Tilize, SingleTileWithLeadingDimension) {
  // The tile at rows 32..63, cols 64..95 of a 64x128 matrix.
  const int cols = 128;
  const std::vector<float> matrix = random_matrix(64, cols, 5);
  std::vector<float> tile(kTileElems);
  tilize_tile(matrix.data() + 32 * cols + 64, cols, tile.data());
  for (int r = 0; r < kTile; ++r) {
    for (int c = 0; c < kTile; ++c) {
      ASSERT_EQ(tile[tile_index(r, c)], matrix[(32 + r) * cols + 64 + c]) << r << "," << c;
    }
  }
  std::vector<float> back(64 * cols, -7.0f);
  untilize_tile(tile.data(), back.data() + 32 * cols + 64, cols);
  EXPECT_EQ(back[32 * cols + 64], matrix[32 * cols + 64]);
  EXPECT_EQ(back[63 * cols + 95], matrix[63 * cols + 95]);
  EXPECT_EQ(back[63 * cols + 96], -7.0f);  // outside the tile: untouched
  EXPECT_EQ(back[31 * cols + 64], -7.0f);
}

TEST(Tilize, RejectsShapesThatAreNotWholeTiles) {
  std::vector<float> matrix(33 * 32, 1.0f);
  EXPECT_THROW(tilize(matrix.data(), 33, 32), Error);
  EXPECT_THROW(tilize(matrix.data(), 32, 0), Error);
  EXPECT_THROW(untilize(matrix.data(), 32, 48), Error);
}

}  // namespace
}  // namespace ditmk::format
