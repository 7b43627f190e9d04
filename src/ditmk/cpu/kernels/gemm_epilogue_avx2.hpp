#pragma once
// The AVX2 GEMM epilogue (bias, activation, store or accumulate) shared by the AVX2-class kernel
// files. Included only by files compiled for AVX2 + FMA, so everything has internal linkage.
#include <immintrin.h>

#include "ditmk/cpu/kernels/gemm.hpp"

namespace ditmk::cpu::detail {
namespace {

// e^v as in the AVX-512 kernels (Cephes polynomial), with 2^n built in the exponent field: the
// clamp keeps n inside the normal range [-126, 127].
__m256 exp_ps(__m256 v) {
  v = _mm256_max_ps(_mm256_min_ps(v, _mm256_set1_ps(88.0f)), _mm256_set1_ps(-87.0f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(v, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), v);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i scale = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(scale));
}

__m256 activate(__m256 v, Activation activation) {
  const __m256 one = _mm256_set1_ps(1.0f);
  switch (activation) {
    case Activation::none: return v;
    case Activation::relu: return _mm256_max_ps(v, _mm256_setzero_ps());
    case Activation::silu: return _mm256_div_ps(v, _mm256_add_ps(one, exp_ps(_mm256_sub_ps(_mm256_setzero_ps(), v))));
    case Activation::gelu_tanh: {
      const __m256 v3 = _mm256_mul_ps(_mm256_mul_ps(v, v), v);
      const __m256 u = _mm256_mul_ps(_mm256_set1_ps(0.7978845608028654f), _mm256_fmadd_ps(_mm256_set1_ps(0.044715f), v3, v));
      return _mm256_div_ps(v, _mm256_add_ps(one, exp_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0f), u))));
    }
  }
  return v;
}

void epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
  int64_t j = 0;
  for (; j + 8 <= count; j += 8) {
    __m256 v = _mm256_loadu_ps(acc + j);
    if (bias) v = _mm256_add_ps(v, _mm256_loadu_ps(bias + j));
    v = activate(v, act);
    if (out == OutputMode::accumulate) v = _mm256_add_ps(v, _mm256_loadu_ps(y + j));
    _mm256_storeu_ps(y + j, v);
  }
  if (j < count) {  // the tail goes through a full vector on the stack
    alignas(32) float lane[8] = {};
    for (int64_t i = j; i < count; ++i) lane[i - j] = acc[i] + (bias ? bias[i] : 0.0f);
    _mm256_store_ps(lane, activate(_mm256_load_ps(lane), act));
    for (int64_t i = j; i < count; ++i) y[i] = out == OutputMode::accumulate ? y[i] + lane[i - j] : lane[i - j];
  }
}

}  // namespace
}  // namespace ditmk::cpu::detail
