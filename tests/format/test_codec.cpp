#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ditmk/core/dtype.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/rng.hpp"
#include "ditmk/format/codec.hpp"

namespace ditmk::format {
namespace {

std::vector<float> random_tiles(std::size_t n_tiles, uint64_t seed) {
  CounterRng rng(seed, 2);
  std::vector<float> values(n_tiles * kTileElems);
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = float(rng.normal(i) * std::ldexp(1.0, int(rng.bits(i) % 9) - 4));
  }
  return values;
}

std::vector<std::byte> pack(TileFormat format, const std::vector<float>& tiles) {
  const std::size_t n_tiles = tiles.size() / kTileElems;
  std::vector<std::byte> bytes(n_tiles * tile_bytes(format));
  pack_tiles(format, tiles.data(), n_tiles, bytes.data(), "test");
  return bytes;
}

std::vector<float> unpack(TileFormat format, const std::vector<std::byte>& bytes) {
  const std::size_t n_tiles = bytes.size() / tile_bytes(format);
  std::vector<float> tiles(n_tiles * kTileElems);
  unpack_tiles(format, bytes.data(), n_tiles, tiles.data());
  return tiles;
}

TEST(Codec, Bf16TileHoldsRoundedWordsLittleEndian) {
  std::vector<float> tile = random_tiles(1, 11);
  tile[10] = std::numeric_limits<float>::infinity();
  tile[11] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::byte> bytes = pack(TileFormat::bf16, tile);
  ASSERT_EQ(bytes.size(), 2048u);
  for (int i = 0; i < kTileElems; ++i) {
    const uint16_t word = uint16_t(uint8_t(bytes[2 * i])) | uint16_t(uint8_t(bytes[2 * i + 1])) << 8;
    ASSERT_EQ(word, f32_to_bf16(tile[i])) << i;
  }
  const std::vector<float> decoded = unpack(TileFormat::bf16, bytes);
  for (int i = 0; i < kTileElems; ++i) {
    if (i == 11) continue;
    ASSERT_EQ(decoded[i], round_to_bf16(tile[i])) << i;
  }
  EXPECT_TRUE(std::isnan(decoded[11]));
  EXPECT_NE(decoded[0], tile[0]);  // the data really was rounded
}

TEST(Codec, Fp32TileIsTheValuesVerbatim) {
  const std::vector<float> tiles = random_tiles(3, 12);
  const std::vector<std::byte> bytes = pack(TileFormat::fp32, tiles);
  ASSERT_EQ(bytes.size(), 3 * 4096u);
  EXPECT_EQ(std::memcmp(bytes.data(), tiles.data(), bytes.size()), 0);
  EXPECT_EQ(unpack(TileFormat::fp32, bytes), tiles);
}

TEST(Codec, Bfp8TileLayoutExponentsFirstThenMantissasInTileOrder) {
  // A 32x32 matrix of 1.0 with 4.0 at (5, 20): face 1, face row 5, column 4 of that row.
  std::vector<float> matrix(kTileElems, 1.0f);
  matrix[5 * kTile + 20] = 4.0f;
  matrix[17 * kTile + 2] = -0.25f;  // face 2, row 1, column 2
  const std::vector<float> tile = tilize(matrix.data(), kTile, kTile);
  const std::vector<std::byte> bytes = pack(TileFormat::bfp8_b, tile);
  ASSERT_EQ(bytes.size(), 1088u);
  for (int group = 0; group < 64; ++group) {
    // Face row 16 * face + row; face 1 row 5 is exponent byte 21.
    ASSERT_EQ(uint8_t(bytes[group]), group == 21 ? 129 : 127) << group;
  }
  EXPECT_EQ(uint8_t(bytes[64 + 256 + 5 * 16 + 4]), 0x40);  // 4.0, the group maximum
  EXPECT_EQ(uint8_t(bytes[64 + 256 + 5 * 16 + 3]), 0x10);  // 1.0 next to it, two steps down
  EXPECT_EQ(uint8_t(bytes[64 + 512 + 16 + 2]), 0x90);      // -0.25 in a group of 1.0
  EXPECT_EQ(uint8_t(bytes[64]), 0x40);
  EXPECT_EQ(uint8_t(bytes[1087]), 0x40);

  const std::vector<float> decoded = unpack(TileFormat::bfp8_b, bytes);
  EXPECT_EQ(untilize(decoded.data(), kTile, kTile), matrix);
}

TEST(Codec, Bfp8TileAgreesWithGroupEncoderAndRoundTile) {
  const std::size_t n_tiles = 4;
  const std::vector<float> tiles = random_tiles(n_tiles, 13);
  const std::vector<std::byte> bytes = pack(TileFormat::bfp8_b, tiles);
  ASSERT_EQ(bytes.size(), n_tiles * 1088);
  for (std::size_t t = 0; t < n_tiles; ++t) {
    const std::byte* tile_bytes_at = bytes.data() + t * 1088;
    for (int group = 0; group < 64; ++group) {
      uint8_t mantissas[kBfp8GroupSize];
      const uint8_t exponent =
          bfp8_encode_group(tiles.data() + t * kTileElems + group * 16, mantissas);
      ASSERT_EQ(uint8_t(tile_bytes_at[group]), exponent);
      ASSERT_EQ(std::memcmp(tile_bytes_at + kBfp8MantissaOffset + group * 16, mantissas, 16), 0);
    }
  }
  const std::vector<float> decoded = unpack(TileFormat::bfp8_b, bytes);
  std::vector<float> rounded(tiles.size());
  for (std::size_t t = 0; t < n_tiles; ++t) {
    round_tile(TileFormat::bfp8_b, tiles.data() + t * kTileElems, rounded.data() + t * kTileElems);
  }
  EXPECT_EQ(rounded, decoded);
  EXPECT_NE(rounded, tiles);
}

TEST(Codec, RoundTileMatchesEveryFormatsRoundTrip) {
  const std::vector<float> tile = random_tiles(1, 14);
  for (TileFormat format : {TileFormat::bf16, TileFormat::bfp8_b, TileFormat::fp32}) {
    std::vector<float> rounded(kTileElems);
    round_tile(format, tile.data(), rounded.data());
    EXPECT_EQ(rounded, unpack(format, pack(format, tile))) << tile_format_name(format);
    std::vector<float> in_place = tile;
    round_tile(format, in_place.data(), in_place.data());
    EXPECT_EQ(in_place, rounded) << tile_format_name(format);
  }
}

TEST(Codec, Bfp8RejectsInfAndNaNNamingTheElement) {
  std::vector<float> tiles = random_tiles(3, 15);
  tiles[2 * kTileElems + tile_index(3, 17)] = -std::numeric_limits<float>::infinity();
  std::vector<std::byte> bytes(3 * 1088);
  try {
    pack_tiles(TileFormat::bfp8_b, tiles.data(), 3, bytes.data(), "blocks.0.attn.to_q.weight");
    FAIL() << "an infinite value was packed";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("tile 2 of 'blocks.0.attn.to_q.weight'"), std::string::npos) << message;
    EXPECT_NE(message.find("(row 3, col 17)"), std::string::npos) << message;
    EXPECT_NE(message.find("infinite"), std::string::npos) << message;
  }
  std::vector<float> tile = random_tiles(1, 16);
  tile[tile_index(30, 1)] = std::numeric_limits<float>::quiet_NaN();
  try {
    pack_tile(TileFormat::bfp8_b, tile.data(), bytes.data());
    FAIL() << "a NaN was packed";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("(row 30, col 1) is NaN"), std::string::npos) << message;
  }
  EXPECT_THROW(round_tile(TileFormat::bfp8_b, tile.data(), tile.data()), Error);
  EXPECT_NO_THROW(pack_tile(TileFormat::bf16, tile.data(), bytes.data()));
}

}  // namespace
}  // namespace ditmk::format
