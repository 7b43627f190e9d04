// The kernel's own tile code (tile_builders.hpp, freestanding) agrees with the host's codecs: the
// bf16 rounding bit for bit over random and special values, the tile order at every element, and
// the constant tiles as the host would build them.
#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "ditmk/core/dtype.hpp"
#include "ditmk/format/tile.hpp"
#include "ditmk/tt/kernel/tile_builders.hpp"

namespace ditmk::tt::kernel {
namespace {

TEST(TileBuilders, Bf16RoundingIsTheHostsBitForBit) {
  std::mt19937 rng(7);
  for (int i = 0; i < 1'000'000; ++i) {
    const uint32_t bits = rng();
    const float value = __builtin_bit_cast(float, bits);
    ASSERT_EQ(to_bf16(value), ditmk::f32_to_bf16(value)) << std::hex << bits;
  }
  for (float value : {0.0f, -0.0f, 1.0f, 0.5f, -1e30f, 1e-5f, 1e-6f, std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                      std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max()}) {
    EXPECT_EQ(to_bf16(value), ditmk::f32_to_bf16(value)) << value;
  }
}

TEST(TileBuilders, TileOrderAndConstantTilesAreTheHosts) {
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) ASSERT_EQ(tile_index(r, c), ditmk::format::tile_index(r, c));
  const Bf16Tile half = identity_tile(0.5f), unit = unit_tile(0, 2), fill = column_fill_tile(3, -1e30f);
  const Bf16Tile rows = row_range_tile(1, 17);
  for (int r = 0; r < 32; ++r) {
    for (int c = 0; c < 32; ++c) {
      const int i = tile_index(r, c);
      EXPECT_EQ(half[i], r == c ? ditmk::f32_to_bf16(0.5f) : 0);
      EXPECT_EQ(unit[i], r == 0 && c == 2 ? ditmk::f32_to_bf16(1.0f) : 0);
      EXPECT_EQ(fill[i], c >= 3 ? ditmk::f32_to_bf16(-1e30f) : 0);
      EXPECT_EQ(rows[i], r >= 1 && r < 17 ? ditmk::f32_to_bf16(1.0f) : 0);
    }
  }
}

}  // namespace
}  // namespace ditmk::tt::kernel
