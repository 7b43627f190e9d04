#include "ditmk/cpu/kernels/attention.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "ditmk/core/error.hpp"

namespace ditmk::cpu {

// keys padded to whole 16-key blocks: transposed keys, a score row, the admissible key indices
std::size_t attention_scratch_floats(int64_t keys, int64_t head_dim) {
  const std::size_t padded = std::size_t(keys + 15) / 16 * 16;
  return padded * std::size_t(head_dim + 2);
}

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

// GCC vector types: the same source becomes SSE, AVX2 or AVX-512 code in each clone of attend_head,
// with identical arithmetic (so every instruction set gives the same result).
// Returning these 64-byte vectors from always-inline helpers never crosses a call boundary, so the
// ABI note GCC gives for them in the baseline (non-AVX-512) clone does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
using v16f = float __attribute__((vector_size(64)));
using v16i = int32_t __attribute__((vector_size(64)));
constexpr int64_t kLanes = 16;  // keys per score block

inline v16f load16(const float* p) {
  v16f v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store16(float* p, v16f v) { std::memcpy(p, &v, sizeof v); }
inline v16f splat(float x) { return v16f{} + x; }

// e^v for v <= 0 (softmax arguments after the max is subtracted), to about 2 ulp: v = n ln2 + r,
// a degree-6 polynomial for e^r (Cephes' expf coefficients), times 2^n built in the exponent bits.
// n is rounded with the 1.5 * 2^23 trick, which is exact for |n| < 2^22.
__attribute__((always_inline)) inline v16f exp_nonpositive(v16f v) {
  v = v < -87.0f ? splat(-87.0f) : v;
  const v16f n = (v * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  v16f r = v - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  v16f p = splat(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + (r + 1.0f);
  const v16i bits = (__builtin_convertvector(n, v16i) + 127) << 23;
  v16f scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

// The probability-weighted sum of V rows for one query row, the output row held in registers
// (D / 16 vectors) across all keys.
template <int64_t D>
__attribute__((always_inline)) inline void weighted_values(const AttentionArgs& a, int64_t h, const int32_t* admissible,
                                                           int64_t n_keys, const float* p, float* out, float inv) {
  static_assert(D % kLanes == 0);
  v16f acc[D / kLanes] = {};
  for (int64_t jj = 0; jj < n_keys; ++jj) {
    const float* v = a.v + admissible[jj] * a.v_stride + h * D;
    const v16f pj = splat(p[jj]);
    for (int64_t c = 0; c < D / kLanes; ++c) acc[c] += pj * load16(v + c * kLanes);
  }
  for (int64_t c = 0; c < D / kLanes; ++c) store16(out + c * kLanes, acc[c] * inv);
}

__attribute__((always_inline)) inline void weighted_values_any(const AttentionArgs& a, int64_t h,
                                                               const int32_t* admissible, int64_t n_keys, const float* p,
                                                               float* out, float inv) {
  const int64_t d = a.head_dim;
  for (int64_t c = 0; c < d; ++c) out[c] = 0.0f;
  for (int64_t jj = 0; jj < n_keys; ++jj) {
    const float* v = a.v + admissible[jj] * a.v_stride + h * d;
    for (int64_t c = 0; c < d; ++c) out[c] += p[jj] * v[c];
  }
  for (int64_t c = 0; c < d; ++c) out[c] *= inv;
}

// One head for every query row. The head's admissible keys are first copied transposed and padded
// to whole 16-key blocks (key_t[c][j]), so a block of 16 scores accumulates in one vector over the
// head's columns; softmax runs on whole blocks (padding keys get probability 0); the weighted sum
// of V rows keeps the output row in registers.
__attribute__((target_clones("avx512f", "avx2", "default"))) void attend_head(const AttentionArgs& a, int64_t h,
                                                                            const int32_t* admissible, int64_t n_keys,
                                                                            float* key_t, float* scores) {
  const int64_t d = a.head_dim;
  const int64_t padded = (n_keys + kLanes - 1) / kLanes * kLanes;
  for (int64_t c = 0; c < d; ++c) {
    float* row = key_t + c * padded;
    for (int64_t jj = 0; jj < n_keys; ++jj) row[jj] = a.k[admissible[jj] * a.k_stride + h * d + c];
    for (int64_t jj = n_keys; jj < padded; ++jj) row[jj] = 0.0f;
  }
  const float minus_inf = -std::numeric_limits<float>::infinity();
  for (int64_t i = 0; i < a.m; ++i) {
    const float* q = a.q + i * a.q_stride + h * d;
    v16f block_max = splat(minus_inf);
    for (int64_t j0 = 0; j0 < padded; j0 += kLanes) {
      v16f acc{};
      for (int64_t c = 0; c < d; ++c) acc += q[c] * load16(key_t + c * padded + j0);
      acc *= a.scale;
      if (j0 + kLanes > n_keys)  // padding keys must not win the max nor get probability
        for (int64_t u = n_keys - j0; u < kLanes; ++u) acc[u] = minus_inf;
      store16(scores + j0, acc);
      block_max = acc > block_max ? acc : block_max;
    }
    float max_score = minus_inf;
    for (int64_t u = 0; u < kLanes; ++u) max_score = block_max[u] > max_score ? block_max[u] : max_score;
    v16f block_sum{};
    for (int64_t j0 = 0; j0 < padded; j0 += kLanes) {
      const v16f p = exp_nonpositive(load16(scores + j0) - max_score);
      const v16f kept = j0 + kLanes > n_keys ? load16(scores + j0) == minus_inf ? v16f{} : p : p;
      store16(scores + j0, kept);
      block_sum += kept;
    }
    float sum = 0.0f;
    for (int64_t u = 0; u < kLanes; ++u) sum += block_sum[u];
    float* out = a.out + i * a.out_stride + h * d;
    const float inv = 1.0f / sum;
    if (d == 48) weighted_values<48>(a, h, admissible, n_keys, scores, out, inv);
    else if (d == 64) weighted_values<64>(a, h, admissible, n_keys, scores, out, inv);
    else weighted_values_any(a, h, admissible, n_keys, scores, out, inv);
  }
}

}  // namespace

void attention(const AttentionArgs& a) {
  check_attention_args(a);
  const std::size_t need = attention_scratch_floats(a.keys, a.head_dim);
  require(a.scratch != nullptr && a.scratch_floats >= need, "attention: scratch has {} floats, needs {}", a.scratch_floats,
          need);
  float* key_t = a.scratch;
  const int64_t padded = (a.keys + 15) / 16 * 16;
  float* scores = key_t + padded * a.head_dim;
  auto* admissible = reinterpret_cast<int32_t*>(scores + padded);
  int64_t n_keys = 0;
  for (int64_t j = 0; j < a.keys; ++j)
    if (!a.key_mask || a.key_mask[j]) admissible[n_keys++] = int32_t(j);
  for (int64_t h = a.h_begin; h < a.h_end; ++h) attend_head(a, h, admissible, n_keys, key_t, scores);
}

}  // namespace ditmk::cpu
