#include <gtest/gtest.h>

#include <cmath>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/layer_norm.hpp"
#include "random_data.hpp"

namespace ditmk::cpu {
namespace {

using testing::random_normal;

TEST(LayerNorm, EveryOptionMatchesReference) {
  const int64_t rows = 49, cols = 1536, stride = 1540;
  // A large common offset checks the statistics are centred before squaring.
  const std::vector<float> x = random_normal(std::size_t(rows * stride), 1, 2.0f, 30.0f);
  const std::vector<float> gamma = random_normal(cols, 2, 0.5f, 1.0f), beta = random_normal(cols, 3, 0.5f);
  const std::vector<float> scale = random_normal(cols, 4, 0.3f), shift = random_normal(cols, 5, 0.3f);
  for (int variant = 0; variant < 4; ++variant) {
    LayerNormArgs a;
    a.x = x.data(), a.x_stride = stride, a.rows = rows, a.cols = cols, a.eps = 1e-6f;
    if (variant & 1) a.gamma = gamma.data(), a.beta = beta.data();
    if (variant & 2) a.scale = scale.data(), a.shift = shift.data();
    std::vector<float> got(std::size_t(rows * cols)), want(got.size());
    a.y_stride = cols;
    a.y = got.data();
    layer_norm(a);
    a.y = want.data();
    layer_norm_reference(a);
    double max_err = 0;
    for (std::size_t i = 0; i < got.size(); ++i) max_err = std::max(max_err, std::abs(double(got[i]) - want[i]));
    EXPECT_LT(max_err, 2e-5) << "variant " << variant;
    EXPECT_GT(std::abs(want[7]), 1e-3);
  }
}

TEST(LayerNorm, InPlaceEqualsOutOfPlace) {
  std::vector<float> x = random_normal(64 * 96, 6);
  std::vector<float> out(x.size());
  LayerNormArgs a;
  a.x = x.data(), a.x_stride = 96, a.y = out.data(), a.y_stride = 96, a.rows = 64, a.cols = 96;
  layer_norm(a);
  a.y = x.data();
  layer_norm(a);
  EXPECT_EQ(x, out);
}

TEST(LayerNorm, RejectsBadArguments) {
  std::vector<float> x(64, 1.0f), y(64), scale(16);
  LayerNormArgs a;
  a.x = x.data(), a.x_stride = 16, a.y = y.data(), a.y_stride = 16, a.rows = 4, a.cols = 16;
  a.scale = scale.data();
  EXPECT_THROW(layer_norm(a), Error);  // scale without shift
  a.scale = nullptr;
  a.eps = 0.0f;
  EXPECT_THROW(layer_norm(a), Error);
}

}  // namespace
}  // namespace ditmk::cpu
