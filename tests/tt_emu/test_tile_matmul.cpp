// The emulator's tile matmul against its one-element-at-a-time definition: the same bits, out's
// previous contents included, on values whose sums round differently in any other order.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "ditmk/format/tile.hpp"
#include "ditmk/tt/emu/tile_matmul.hpp"

namespace ditmk::tt::emu {
namespace {

using format::kTileElems;

std::vector<float> tile_of(unsigned seed, float spread) {
  std::mt19937 rng(seed);
  std::lognormal_distribution<float> magnitude(0.0f, spread);
  std::vector<float> t(kTileElems);
  for (float& v : t) v = (rng() & 1 ? -1.0f : 1.0f) * magnitude(rng);
  return t;
}

TEST(TileMatmul, AccumulatesWithTheBitsOfTheDefinition) {
  for (unsigned seed = 0; seed < 4; ++seed) {
    const std::vector<float> a = tile_of(seed, 3.0f), b = tile_of(seed + 100, 3.0f), start = tile_of(seed + 200, 1.0f);
    std::vector<float> want = start, got = start;
    matmul_tile_accumulate_reference(a.data(), b.data(), want.data());
    matmul_tile_accumulate(a.data(), b.data(), got.data());
    ASSERT_EQ(std::memcmp(want.data(), got.data(), sizeof(float) * kTileElems), 0) << "seed " << seed;
    EXPECT_NE(want, start);
  }
}

TEST(TileMatmul, OneTermIsOneRoundedProductThenOneRoundedSum) {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds (to even) to 1 + 2^-11, so adding -1 gives 2^-11; a
  // fused multiply-add would give the exact 2^-11 + 2^-24
  std::vector<float> a(kTileElems, 0.0f), b(kTileElems, 0.0f), out(kTileElems, 0.0f);
  a[0] = b[0] = 1.0f + 0x1p-12f;
  out[0] = -1.0f;
  matmul_tile_accumulate(a.data(), b.data(), out.data());
  EXPECT_EQ(out[0], (1.0f + 0x1p-11f) - 1.0f);
}

}  // namespace
}  // namespace ditmk::tt::emu
