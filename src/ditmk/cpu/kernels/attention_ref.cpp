#include <cmath>
#include <vector>

#include "ditmk/cpu/kernels/attention.hpp"

namespace ditmk::cpu {

void attention_reference(const AttentionArgs& a) {
  check_attention_args(a);
  const int64_t d = a.head_dim;
  std::vector<double> weights(std::size_t(a.keys));
  for (int64_t h = a.h_begin; h < a.h_end; ++h) {
    for (int64_t i = 0; i < a.m; ++i) {
      double max_score = -INFINITY;
      for (int64_t j = 0; j < a.keys; ++j) {
        double dot = 0.0;
        for (int64_t c = 0; c < d; ++c) dot += double(a.q[i * a.q_stride + h * d + c]) * a.k[j * a.k_stride + h * d + c];
        const bool admissible = a.key_mask == nullptr || a.key_mask[j] != 0;
        weights[std::size_t(j)] = admissible ? dot * a.scale : -INFINITY;
        max_score = std::max(max_score, weights[std::size_t(j)]);
      }
      double sum = 0.0;
      for (double& w : weights) sum += (w = std::exp(w - max_score));
      for (int64_t c = 0; c < d; ++c) {
        double acc = 0.0;
        for (int64_t j = 0; j < a.keys; ++j) acc += weights[std::size_t(j)] * a.v[j * a.v_stride + h * d + c];
        a.out[i * a.out_stride + h * d + c] = float(acc / sum);
      }
    }
  }
}

}  // namespace ditmk::cpu
