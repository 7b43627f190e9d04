#include <cmath>
#include <vector>

#include "ditmk/cpu/kernels/layer_norm.hpp"

namespace ditmk::cpu {

void layer_norm_reference(const LayerNormArgs& a) {
  check_layer_norm_args(a);
  std::vector<double> row(std::size_t(a.cols));
  for (int64_t r = 0; r < a.rows; ++r) {
    double mean = 0.0;
    for (int64_t c = 0; c < a.cols; ++c) mean += (row[std::size_t(c)] = a.x[r * a.x_stride + c]);
    mean /= double(a.cols);
    double var = 0.0;
    for (double v : row) var += (v - mean) * (v - mean);
    var /= double(a.cols);
    for (int64_t c = 0; c < a.cols; ++c) {
      double v = (row[std::size_t(c)] - mean) / std::sqrt(var + double(a.eps));
      if (a.gamma) v *= a.gamma[c];
      if (a.beta) v += a.beta[c];
      if (a.scale) v = v * (1.0 + a.scale[c]) + a.shift[c];
      a.y[r * a.y_stride + c] = float(v);
    }
  }
}

}  // namespace ditmk::cpu
