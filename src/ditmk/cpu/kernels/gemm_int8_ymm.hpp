#pragma once
// What the two ymm int8 kernels (AVX2's vpmaddubsw and AVX-VNNI's vpdpbusd) share once a block's
// exact int32 sums are in registers: the block's scales applied in fp32. Included only by files
// compiled for AVX2 + FMA, so everything has internal linkage.
#include <immintrin.h>

#include "ditmk/cpu/kernels/gemm_driver.hpp"

namespace ditmk::cpu::detail {
namespace {

using I32x8 = __v8si;

// acc[r] (+)= float(sums[r]) * (w_scale * 2^e_r) for the R rows of a tile and the 32 columns of one
// int8 block (`group`), stored over acc when `start`. w_scale * 2^e is a multiply by 2^e made
// exactly: the same rounding as the AVX-512 kernel's vscalefps.
template <int R>
void add_scaled_block(const I32x8 (&sums)[R][4], const Int8XBlock* x, int64_t x_stride, int64_t b, const uint8_t* group,
                      float* acc, bool start) {
  const auto* w_scale = reinterpret_cast<const float*>(group + PackedWeights::kInt8ScalesOffset);
  for (int r = 0; r < R; ++r) {
    const __m256 x_scale = _mm256_set1_ps(pow2(int(x[r * x_stride + b].exponent)));
    for (int j = 0; j < 4; ++j) {
      float* a = acc + r * kPanelWidth + 8 * j;
      const __m256 s = _mm256_mul_ps(_mm256_load_ps(w_scale + 8 * j), x_scale);
      const __m256 sum = __builtin_convertvector(sums[r][j], __v8sf);
      _mm256_store_ps(a, _mm256_fmadd_ps(sum, s, start ? _mm256_setzero_ps() : _mm256_load_ps(a)));
    }
  }
}

}  // namespace
}  // namespace ditmk::cpu::detail
