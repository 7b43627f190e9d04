#include "ditmk/model/float64_ops.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ditmk/core/error.hpp"
#include "ditmk/core/parallel.hpp"
#include "ditmk/model/float64_dot.hpp"

namespace ditmk::model {

namespace {

void widen(const TensorView& v, std::size_t offset, std::size_t n, double* out) {
  load_as_double(v.data, v.dtype, offset, n, out);
}

// Weight rows widened at a time for dot_products: about 128 KiB of doubles, so the panel stays in
// L2 while every x row passes it; at least one block of four.
int panel_rows(int in) { return std::max(4, (16384 / std::max(in, 1)) & ~3); }

__attribute__((target_clones("avx2", "default"))) void axpy(double a, const double* x, double* y, int n) {
  for (int i = 0; i < n; ++i) y[i] += a * x[i];
}

}  // namespace

double activate(double x, Act act) {
  switch (act) {
    case Act::none: return x;
    case Act::relu: return x > 0 ? x : 0.0;
    case Act::silu: return x / (1.0 + std::exp(-x));
    case Act::gelu_tanh: {
      const double c = std::sqrt(2.0 / M_PI);
      return 0.5 * x * (1.0 + std::tanh(c * (x + 0.044715 * x * x * x)));
    }
  }
  return x;
}

MatD Float64Ops::linear(const MatD& x, const Linear& l, Act act) const {
  const int in = l.in(), out = l.out();
  require(x.cols == in, "linear: input width {} != weight input {}", x.cols, in);
  MatD y(x.rows, out);
  parallel_ranges(out, threads, [&](int n0, int n1) {
    const int panel = panel_rows(in);
    std::vector<double> w(std::size_t(panel) * in);
    for (int p0 = n0; p0 < n1; p0 += panel) {
      const int rows = std::min(panel, n1 - p0);
      widen(l.weight, std::size_t(p0) * in, std::size_t(rows) * in, w.data());
      dot_products(x.data.data(), in, x.rows, w.data(), in, rows, in, y.data.data() + p0, out);
      for (int n = p0; n < p0 + rows; ++n) {
        const double bias = l.bias.at(n);
        for (int m = 0; m < x.rows; ++m) y(m, n) = activate(y(m, n) + bias, act);
      }
    }
  });
  return y;
}

MatD Float64Ops::linear_kn(const MatD& x, const Linear& l, Act act) const {
  const int in = int(l.weight.shape[0]), out = int(l.weight.shape[1]);
  require(x.cols == in, "linear: input width {} != weight input {}", x.cols, in);
  MatD y(x.rows, out);
  parallel_ranges(out, threads, [&](int n0, int n1) {
    const int width = n1 - n0;
    std::vector<double> wrow(width);
    for (int k = 0; k < in; ++k) {
      widen(l.weight, std::size_t(k) * out + n0, width, wrow.data());
      for (int m = 0; m < x.rows; ++m) axpy(x(m, k), wrow.data(), y.row(m) + n0, width);
    }
    for (int m = 0; m < x.rows; ++m)
      for (int n = n0; n < n1; ++n) y(m, n) = activate(y(m, n) + l.bias.at(n), act);
  });
  return y;
}

MatD Float64Ops::layernorm(const MatD& x, const TensorView* gamma, const TensorView* beta, double eps) const {
  MatD y(x.rows, x.cols);
  for (int m = 0; m < x.rows; ++m) {
    double mean = 0, var = 0;
    for (int i = 0; i < x.cols; ++i) mean += x(m, i);
    mean /= x.cols;
    for (int i = 0; i < x.cols; ++i) var += (x(m, i) - mean) * (x(m, i) - mean);
    const double inv = 1.0 / std::sqrt(var / x.cols + eps);
    for (int i = 0; i < x.cols; ++i) {
      double v = (x(m, i) - mean) * inv;
      if (gamma) v = v * gamma->at(i) + beta->at(i);
      y(m, i) = v;
    }
  }
  return y;
}

MatD layernorm_modulate(const MatD& x, double eps, const double* scale, const double* shift) {
  MatD y = Float64Ops{}.layernorm(x, nullptr, nullptr, eps);
  for (int m = 0; m < y.rows; ++m)
    for (int i = 0; i < y.cols; ++i) y(m, i) = y(m, i) * (1.0 + scale[i]) + shift[i];
  return y;
}

MatD Float64Ops::attention(const MatD& q, const MatD& k, const MatD& v, const std::vector<uint8_t>* key_mask,
                           int heads, int head_dim) const {
  const double scale = 1.0 / std::sqrt(double(head_dim));
  MatD out(q.rows, heads * head_dim);
  parallel_ranges(heads, threads, [&](int h0, int h1) {
    std::vector<double> products(std::size_t(q.rows) * k.rows);
    for (int h = h0; h < h1; ++h) {
      const int c0 = h * head_dim;
      dot_products(q.data.data() + c0, q.cols, q.rows, k.data.data() + c0, k.cols, k.rows, head_dim, products.data(),
                   k.rows);
      for (int m = 0; m < q.rows; ++m) {
        double* scores = products.data() + std::size_t(m) * k.rows;
        double max_score = -std::numeric_limits<double>::infinity();
        for (int j = 0; j < k.rows; ++j) {
          scores[j] = (key_mask && !(*key_mask)[j]) ? -std::numeric_limits<double>::infinity() : scale * scores[j];
          max_score = std::max(max_score, scores[j]);
        }
        require(std::isfinite(max_score), "attention: query row {} has no admissible key", m);
        double sum = 0;
        for (int j = 0; j < k.rows; ++j) sum += (scores[j] = std::exp(scores[j] - max_score));
        double* o = out.row(m) + c0;
        for (int j = 0; j < k.rows; ++j)
          if (scores[j] != 0.0) axpy(scores[j] / sum, v.row(j) + c0, o, head_dim);
      }
    }
  });
  return out;
}

void Float64Ops::add_inplace(MatD& a, const MatD& b) const {
  for (std::size_t i = 0; i < a.data.size(); ++i) a.data[i] += b.data[i];
}

}  // namespace ditmk::model
