#include <gtest/gtest.h>

#include "ditmk/model/encodings.hpp"

namespace ditmk::model {
namespace {

// MODEL.md's check values at t = 750.
TEST(Encodings, TimestepSinusoidMatchesCheckValues) {
  const auto emb = timestep_sinusoid(750, 256);
  ASSERT_EQ(emb.size(), 256u);
  EXPECT_NEAR(emb[0], -0.66698, 5e-6);
  EXPECT_NEAR(emb[1], 0.99499, 5e-6);
  EXPECT_NEAR(emb[2], 0.0011510, 5e-8);
  EXPECT_NEAR(emb[128], 0.74507, 5e-6);
  EXPECT_NEAR(emb[129], 0.09996, 5e-6);
  EXPECT_NEAR(emb[130], 0.99999934, 5e-9);
}

// MODEL.md's tau values come from PyTorch's float32 sin/cos, whose range reduction at ~730 rad is
// off by up to 6e-5 (tau[2]: torch -0.23188, exact sin of the same float32 argument -0.23182).
TEST(Encodings, TauSinusoidMatchesCheckValues) {
  const auto tau = tau_sinusoid(750, 1536);
  ASSERT_EQ(tau.size(), 1536u);
  EXPECT_NEAR(tau[0], 0.74507, 5e-6);
  EXPECT_NEAR(tau[1], -0.34909, 1e-4);
  EXPECT_NEAR(tau[2], -0.23188, 1e-4);
  EXPECT_NEAR(tau[768], -0.66698, 5e-6);
  EXPECT_NEAR(tau[769], 0.93709, 1e-4);
  EXPECT_NEAR(tau[770], -0.97274, 1e-4);
}

}  // namespace
}  // namespace ditmk::model
