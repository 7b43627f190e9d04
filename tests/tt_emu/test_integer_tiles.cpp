// 32-bit integers in DST (emu/integer_tiles.hpp): raw word tiles and the SFPU's typecast rules.
#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ditmk/format/tile.hpp"
#include "ditmk/tt/emu/integer_tiles.hpp"

namespace ditmk::tt::emu {
namespace {

using format::kTile;
using format::kTileElems;

uint32_t cast_bits(DstKind from, DstKind to, float x) { return std::bit_cast<uint32_t>(*typecast_word(from, to, x)); }
float from_bits(DstKind from, DstKind to, uint32_t bits) { return *typecast_word(from, to, std::bit_cast<float>(bits)); }

TEST(IntegerTiles, WordTilesRoundTripInTileOrder) {
  std::vector<float> dst(kTileElems);
  for (int i = 0; i < kTileElems; ++i) dst[i] = std::bit_cast<float>(uint32_t(0xA5000000u + i));
  std::vector<std::byte> tile(4096);
  pack_word_tile(dst.data(), tile.data());
  uint32_t word = 0;
  std::memcpy(&word, tile.data() + std::size_t(format::tile_index(3, 17)) * 4, 4);
  EXPECT_EQ(word, 0xA5000000u + 3 * kTile + 17);  // element (3, 17) sits where tile order puts it
  std::vector<float> back(kTileElems);
  unpack_word_tile(tile.data(), back.data());
  for (int i = 0; i < kTileElems; ++i) ASSERT_EQ(std::bit_cast<uint32_t>(back[i]), 0xA5000000u + i);
}

TEST(IntegerTiles, FloatToUint32TruncatesAndSaturates) {
  const DstKind f = DstKind::bfloat16, u = DstKind::uint32;
  EXPECT_EQ(cast_bits(f, u, 199.0f), 199u);
  EXPECT_EQ(cast_bits(f, u, 7.99f), 7u);
  EXPECT_EQ(cast_bits(f, u, 0.75f), 0u);
  EXPECT_EQ(cast_bits(f, u, -5.0f), 0u);
  EXPECT_EQ(cast_bits(f, u, 4294967296.0f), 0xFFFFFFFFu);
  EXPECT_EQ(cast_bits(f, u, 3.0e9f), 3000000000u);
}

TEST(IntegerTiles, FloatToInt32TruncatesTowardZeroAndSaturates) {
  const DstKind f = DstKind::float32, i = DstKind::int32;
  EXPECT_EQ(int32_t(cast_bits(f, i, -7.5f)), -7);
  EXPECT_EQ(int32_t(cast_bits(f, i, 7.5f)), 7);
  EXPECT_EQ(int32_t(cast_bits(f, i, 3.0e9f)), INT32_MAX);
  EXPECT_EQ(int32_t(cast_bits(f, i, -3.0e9f)), INT32_MIN);
}

TEST(IntegerTiles, IntegerToFloatRoundsOnceToNearestEven) {
  EXPECT_EQ(from_bits(DstKind::uint32, DstKind::float32, 16777217u), 16777216.0f);   // 2^24 + 1: tie to even
  EXPECT_EQ(from_bits(DstKind::uint32, DstKind::float32, 16777219u), 16777220.0f);   // 2^24 + 3: tie to even
  EXPECT_EQ(from_bits(DstKind::uint32, DstKind::float32, 0xFFFFFFFFu), 4294967296.0f);
  EXPECT_EQ(from_bits(DstKind::int32, DstKind::float32, uint32_t(-12345)), -12345.0f);
  EXPECT_EQ(from_bits(DstKind::uint32, DstKind::bfloat16, 257u), 256.0f);  // 8 significant bits
  EXPECT_EQ(from_bits(DstKind::uint32, DstKind::bfloat16, 259u), 260.0f);
  EXPECT_EQ(from_bits(DstKind::int32, DstKind::bfloat16, uint32_t(-383)), -384.0f);
}

TEST(IntegerTiles, IntegerToOtherIntegerHasNoCast) {
  EXPECT_FALSE(typecast_word(DstKind::int32, DstKind::uint32, 0.0f).has_value());
  EXPECT_FALSE(dst_kind_of_format(9).has_value());  // UInt16: not modelled
  EXPECT_EQ(dst_kind_of_format(24), DstKind::uint32);
}

}  // namespace
}  // namespace ditmk::tt::emu
