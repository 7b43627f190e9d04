#include "ditmk/model/float64_dot.hpp"

#include <algorithm>
#include <cstring>

namespace ditmk::model {

namespace {

// Lanes are dot()'s four partial sums. Kept inside the functions below: passed by value, a 32-byte
// vector's ABI would differ between the portable and the AVX2 build.
using Lanes = double __attribute__((vector_size(32)));

constexpr int kRowBlock = 3, kWeightBlock = 4;

inline double finish(const Lanes& s, const double* a, const double* b, int from, int n) {
  double s0 = s[0];
  for (int i = from; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s[1]) + (s[2] + s[3]);
}

// A 3 x 4 block of outputs; rows past the matrix point at its last row and are not written.
inline void block(const double* const* x, const double* const* w, int n, int rows, int w_rows, double* y,
                  int y_stride) {
  Lanes acc[kRowBlock][kWeightBlock] = {};
  const int whole = n & ~3;
  for (int i = 0; i < whole; i += 4) {
    Lanes wv[kWeightBlock];
#pragma GCC unroll 4
    for (int r = 0; r < kWeightBlock; ++r) std::memcpy(&wv[r], w[r] + i, sizeof(Lanes));
#pragma GCC unroll 3
    for (int m = 0; m < kRowBlock; ++m) {
      Lanes xv;
      std::memcpy(&xv, x[m] + i, sizeof(Lanes));
#pragma GCC unroll 4
      for (int r = 0; r < kWeightBlock; ++r) acc[m][r] += xv * wv[r];
    }
  }
  for (int m = 0; m < rows; ++m)
    for (int r = 0; r < w_rows; ++r) y[std::size_t(m) * y_stride + r] = finish(acc[m][r], x[m], w[r], whole, n);
}

}  // namespace

__attribute__((target_clones("avx2", "default"))) double dot(const double* a, const double* b, int n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

__attribute__((target_clones("avx2", "default"))) void dot_products(const double* x, int x_stride, int rows,
                                                                    const double* w, int w_stride, int w_rows, int n,
                                                                    double* y, int y_stride) {
  // x rows outside, weight rows inside: three x rows stay in L1 while the weight rows (a panel the
  // caller sizes for L2) stream past them.
  for (int m0 = 0; m0 < rows; m0 += kRowBlock) {
    const int mb = std::min(kRowBlock, rows - m0);
    const double* xr[kRowBlock];
    for (int m = 0; m < kRowBlock; ++m) xr[m] = x + std::size_t(m0 + std::min(m, mb - 1)) * x_stride;
    for (int r0 = 0; r0 < w_rows; r0 += kWeightBlock) {
      const int rb = std::min(kWeightBlock, w_rows - r0);
      const double* wr[kWeightBlock];
      for (int r = 0; r < kWeightBlock; ++r) wr[r] = w + std::size_t(r0 + std::min(r, rb - 1)) * w_stride;
      block(xr, wr, n, mb, rb, y + std::size_t(m0) * y_stride + r0, y_stride);
    }
  }
}

}  // namespace ditmk::model
