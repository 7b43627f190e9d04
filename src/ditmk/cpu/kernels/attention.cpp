#include "ditmk/cpu/kernels/attention.hpp"

#include <cmath>
#include <limits>

#include "ditmk/core/error.hpp"

namespace ditmk::cpu {

std::size_t attention_scratch_floats(int64_t keys) { return std::size_t(keys); }

void check_attention_args(const AttentionArgs& a) {
  require(a.q && a.k && a.v && a.out, "attention: q, k, v or out is null");
  require(a.m >= 1 && a.keys >= 1 && a.heads >= 1 && a.head_dim >= 1,
          "attention: empty shape (m {}, keys {}, heads {}, head_dim {})", a.m, a.keys, a.heads, a.head_dim);
  const int64_t width = a.heads * a.head_dim;
  require(a.q_stride >= width && a.k_stride >= width && a.v_stride >= width && a.out_stride >= width,
          "attention: a row stride is below heads * head_dim = {}", width);
  require(a.h_begin >= 0 && a.h_begin < a.h_end && a.h_end <= a.heads, "attention: head range [{}, {}) not inside [0, {})",
          a.h_begin, a.h_end, a.heads);
  require(std::isfinite(a.scale) && a.scale > 0.0f, "attention: scale must be positive and finite, got {}", a.scale);
  if (a.key_mask != nullptr) {
    int64_t admissible = 0;
    for (int64_t j = 0; j < a.keys; ++j) admissible += a.key_mask[j] != 0;
    require(admissible > 0, "attention: key_mask admits none of the {} keys, so no query row has a key to attend to",
            a.keys);
  }
}

void attention(const AttentionArgs& a) {
  check_attention_args(a);
  require(a.scratch != nullptr && a.scratch_floats >= attention_scratch_floats(a.keys),
          "attention: scratch has {} floats, needs {}", a.scratch_floats, attention_scratch_floats(a.keys));
  const int64_t d = a.head_dim;
  float* scores = a.scratch;
  for (int64_t h = a.h_begin; h < a.h_end; ++h) {
    for (int64_t i = 0; i < a.m; ++i) {
      const float* q = a.q + i * a.q_stride + h * d;
      float max_score = -std::numeric_limits<float>::infinity();
      for (int64_t j = 0; j < a.keys; ++j) {
        if (a.key_mask && !a.key_mask[j]) continue;
        const float* k = a.k + j * a.k_stride + h * d;
        float dot = 0.0f;
        for (int64_t c = 0; c < d; ++c) dot += q[c] * k[c];
        scores[j] = dot * a.scale;
        max_score = std::max(max_score, scores[j]);
      }
      float* out = a.out + i * a.out_stride + h * d;
      for (int64_t c = 0; c < d; ++c) out[c] = 0.0f;
      float sum = 0.0f;
      for (int64_t j = 0; j < a.keys; ++j) {
        if (a.key_mask && !a.key_mask[j]) continue;
        const float p = std::exp(scores[j] - max_score);
        sum += p;
        const float* v = a.v + j * a.v_stride + h * d;
        for (int64_t c = 0; c < d; ++c) out[c] += p * v[c];
      }
      const float inv = 1.0f / sum;
      for (int64_t c = 0; c < d; ++c) out[c] *= inv;
    }
  }
}

}  // namespace ditmk::cpu
