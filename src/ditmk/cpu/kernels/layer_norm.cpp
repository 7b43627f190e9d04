#include "ditmk/cpu/kernels/layer_norm.hpp"

#include <cmath>

#include "ditmk/core/error.hpp"

namespace ditmk::cpu {

void check_layer_norm_args(const LayerNormArgs& a) {
  require(a.x != nullptr && a.y != nullptr, "layer_norm: x or y is null");
  require(a.rows >= 1 && a.cols >= 1, "layer_norm: empty shape [{}, {}]", a.rows, a.cols);
  require(a.x_stride >= a.cols && a.y_stride >= a.cols, "layer_norm: row stride below cols = {}", a.cols);
  require(a.eps > 0.0f, "layer_norm: eps must be positive, got {}", a.eps);
  require((a.scale == nullptr) == (a.shift == nullptr), "layer_norm: scale and shift must be given together");
}

namespace {

constexpr int kLanes = 16;

// Sum of (x[c] - origin) in kLanes interleaved partial sums: the compiler vectorises it, and each
// partial sum adds only cols / 16 terms, so rounding error grows 16 times slower than one running
// sum. Subtracting an origin taken from the row (its first value) keeps the terms small when the
// row's mean is large against its spread.
float shifted_sum(const float* x, int64_t cols, float origin, bool square) {
  float lanes[kLanes] = {};
  int64_t c = 0;
  for (; c + kLanes <= cols; c += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      const float d = x[c + l] - origin;
      lanes[l] += square ? d * d : d;
    }
  for (; c < cols; ++c) {
    const float d = x[c] - origin;
    lanes[0] += square ? d * d : d;
  }
  float total = 0.0f;
  for (float lane : lanes) total += lane;
  return total;
}

}  // namespace

// Two passes (mean, then the centred sum of squares) keep the variance accurate when |mean| is
// large against the spread, which a one-pass E[x^2] - E[x]^2 would not.
void layer_norm(const LayerNormArgs& a) {
  check_layer_norm_args(a);
  for (int64_t r = 0; r < a.rows; ++r) {
    const float* x = a.x + r * a.x_stride;
    float* y = a.y + r * a.y_stride;
    const float mean = x[0] + shifted_sum(x, a.cols, x[0], false) / float(a.cols);
    const float squares = shifted_sum(x, a.cols, mean, true);
    const float rstd = 1.0f / std::sqrt(squares / float(a.cols) + a.eps);
    for (int64_t c = 0; c < a.cols; ++c) {
      float v = (x[c] - mean) * rstd;
      if (a.gamma) v *= a.gamma[c];
      if (a.beta) v += a.beta[c];
      if (a.scale) v = v * (1.0f + a.scale[c]) + a.shift[c];
      y[c] = v;
    }
  }
}

}  // namespace ditmk::cpu
