#include "ditmk/cpu/kernels/attention.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "ditmk/core/error.hpp"

namespace ditmk::cpu {

std::size_t attention_scratch_floats(int64_t keys, int64_t head_dim) { return std::size_t(keys) * (head_dim + 2); }

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

namespace {

// e^v for v <= 0 (softmax arguments after the max is subtracted), to about 2 ulp: v = n ln2 + r,
// a degree-6 polynomial for e^r (Cephes' expf coefficients), times 2^n built in the exponent bits.
// Plain arithmetic, so loops over keys vectorise on every instruction set alike, with the same result.
inline float exp_nonpositive(float v) {
  v = v < -87.0f ? -87.0f : v;
  const float n = std::floor(v * 1.44269504088896341f + 0.5f);
  float r = v - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + (r + 1.0f);
  const int32_t bits = (int32_t(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

// One head for every query row. The head's admissible keys are first copied transposed
// (key_t[c][j]), so a score row is `keys` independent sums that vectorise along j, and the
// probability-weighted sum of V rows vectorises along the head's columns.
__attribute__((target_clones("avx512f", "avx2", "default"))) void attend_head(const AttentionArgs& a, int64_t h,
                                                                            const int32_t* admissible, int64_t n_keys,
                                                                            float* key_t, float* scores) {
  const int64_t d = a.head_dim;
  for (int64_t jj = 0; jj < n_keys; ++jj) {
    const float* k = a.k + admissible[jj] * a.k_stride + h * d;
    for (int64_t c = 0; c < d; ++c) key_t[c * n_keys + jj] = k[c];
  }
  for (int64_t i = 0; i < a.m; ++i) {
    const float* q = a.q + i * a.q_stride + h * d;
    for (int64_t jj = 0; jj < n_keys; ++jj) scores[jj] = 0.0f;
    for (int64_t c = 0; c < d; ++c) {
      const float qc = q[c];
      const float* row = key_t + c * n_keys;
      for (int64_t jj = 0; jj < n_keys; ++jj) scores[jj] += qc * row[jj];
    }
    float max_score = -std::numeric_limits<float>::infinity();
    for (int64_t jj = 0; jj < n_keys; ++jj) {
      scores[jj] *= a.scale;
      max_score = scores[jj] > max_score ? scores[jj] : max_score;
    }
    float sum = 0.0f;
    for (int64_t jj = 0; jj < n_keys; ++jj) {
      scores[jj] = exp_nonpositive(scores[jj] - max_score);
      sum += scores[jj];
    }
    float* out = a.out + i * a.out_stride + h * d;
    for (int64_t c = 0; c < d; ++c) out[c] = 0.0f;
    for (int64_t jj = 0; jj < n_keys; ++jj) {
      const float p = scores[jj];
      const float* v = a.v + admissible[jj] * a.v_stride + h * d;
      for (int64_t c = 0; c < d; ++c) out[c] += p * v[c];
    }
    const float inv = 1.0f / sum;
    for (int64_t c = 0; c < d; ++c) out[c] *= inv;
  }
}

}  // namespace

void attention(const AttentionArgs& a) {
  check_attention_args(a);
  const std::size_t need = attention_scratch_floats(a.keys, a.head_dim);
  require(a.scratch != nullptr && a.scratch_floats >= need, "attention: scratch has {} floats, needs {}", a.scratch_floats,
          need);
  float* key_t = a.scratch;
  float* scores = key_t + a.keys * a.head_dim;
  auto* admissible = reinterpret_cast<int32_t*>(scores + a.keys);
  int64_t n_keys = 0;
  for (int64_t j = 0; j < a.keys; ++j)
    if (!a.key_mask || a.key_mask[j]) admissible[n_keys++] = int32_t(j);
  for (int64_t h = a.h_begin; h < a.h_end; ++h) attend_head(a, h, admissible, n_keys, key_t, scores);
}

}  // namespace ditmk::cpu
