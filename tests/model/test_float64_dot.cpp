// dot_products, the blocked float64 products, against dot, one product at a time: the same bits for
// every shape (tails of rows, weight rows and length), stride and offset, so the float64 reference
// does not change with how its products are grouped.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "ditmk/model/float64_dot.hpp"

namespace ditmk::model {
namespace {

std::vector<double> normal_values(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> v(n);
  for (double& x : v) x = normal(rng) * 3.0;
  return v;
}

TEST(Float64Dot, BlockedProductsHaveTheBitsOfOneDotAtATime) {
  struct Shape {
    int rows, w_rows, n, x_pad, w_pad;
  };
  for (const Shape s : {Shape{1, 1, 1, 0, 0}, Shape{3, 4, 8, 0, 0}, Shape{7, 9, 13, 5, 3}, Shape{2, 5, 64, 64, 0},
                        Shape{10, 3, 3, 1, 7}, Shape{4, 11, 1535, 2, 1}, Shape{6, 8, 0, 0, 0}}) {
    const int x_stride = s.n + s.x_pad, w_stride = s.n + s.w_pad, y_stride = s.w_rows + 2;
    const auto x = normal_values(std::size_t(s.rows) * x_stride + 1, 1);
    const auto w = normal_values(std::size_t(s.w_rows) * w_stride + 1, 2);
    std::vector<double> y(std::size_t(s.rows) * y_stride, -7.0);
    dot_products(x.data(), x_stride, s.rows, w.data(), w_stride, s.w_rows, s.n, y.data(), y_stride);
    for (int m = 0; m < s.rows; ++m) {
      for (int r = 0; r < y_stride; ++r) {
        const double got = y[std::size_t(m) * y_stride + r];
        if (r >= s.w_rows) {
          EXPECT_EQ(got, -7.0) << "wrote past the block at " << m << ", " << r;
          continue;
        }
        const double want = dot(x.data() + std::size_t(m) * x_stride, w.data() + std::size_t(r) * w_stride, s.n);
        EXPECT_EQ(std::memcmp(&got, &want, sizeof got), 0)
            << "rows " << s.rows << " w_rows " << s.w_rows << " n " << s.n << " at " << m << ", " << r << ": " << got
            << " != " << want;
      }
    }
  }
}

TEST(Float64Dot, DotKeepsFourPartialSums) {
  // One running sum loses the 1 to 1e16 before -1e16 comes; the four sums over i mod 4 keep it.
  const double a[] = {1e16, 1.0, 0.0, 0.0, -1e16, 0.0, 0.0, 0.0, 0.0};
  const double b[] = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
  EXPECT_EQ(dot(a, b, 9), 1.0);
}

}  // namespace
}  // namespace ditmk::model
