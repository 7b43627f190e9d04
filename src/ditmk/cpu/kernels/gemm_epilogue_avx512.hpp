#pragma once
// The AVX-512 GEMM epilogue (bias, activation, store or accumulate) shared by the AVX-512 kernel
// files. Included only by files compiled for AVX-512, so everything has internal linkage.
#include <immintrin.h>

#include "ditmk/cpu/kernels/gemm.hpp"

namespace ditmk::cpu::detail {
namespace {

// e^v to about 2 ulp: v = n ln2 + r with |r| <= ln2/2, a degree-6 polynomial for e^r (Cephes'
// expf coefficients), then scale by 2^n. Inputs are clamped to where e^v is a finite normal float.
__m512 exp_ps(__m512 v) {
  v = _mm512_max_ps(_mm512_min_ps(v, _mm512_set1_ps(88.0f)), _mm512_set1_ps(-87.0f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(v, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), v);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_scalef_ps(p, n);
}

// gelu_tanh(v) = 0.5 v (1 + tanh(u)) = v / (1 + e^(-2u)); silu(v) = v / (1 + e^(-v)).
__m512 activate(__m512 v, Activation activation) {
  const __m512 one = _mm512_set1_ps(1.0f);
  switch (activation) {
    case Activation::none: return v;
    case Activation::relu: return _mm512_max_ps(v, _mm512_setzero_ps());
    case Activation::silu: return _mm512_div_ps(v, _mm512_add_ps(one, exp_ps(_mm512_sub_ps(_mm512_setzero_ps(), v))));
    case Activation::gelu_tanh: {
      const __m512 v3 = _mm512_mul_ps(_mm512_mul_ps(v, v), v);
      const __m512 u = _mm512_mul_ps(_mm512_set1_ps(0.7978845608028654f), _mm512_fmadd_ps(_mm512_set1_ps(0.044715f), v3, v));
      return _mm512_div_ps(v, _mm512_add_ps(one, exp_ps(_mm512_mul_ps(_mm512_set1_ps(-2.0f), u))));
    }
  }
  return v;
}

void epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
  for (int64_t j = 0; j < count; j += 16) {
    const __mmask16 mask = count - j >= 16 ? __mmask16(0xffff) : __mmask16((1u << (count - j)) - 1);
    __m512 v = _mm512_maskz_loadu_ps(mask, acc + j);
    if (bias) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, bias + j));
    v = activate(v, act);
    if (out == OutputMode::accumulate) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, y + j));
    _mm512_mask_storeu_ps(y + j, mask, v);
  }
}

}  // namespace
}  // namespace ditmk::cpu::detail
