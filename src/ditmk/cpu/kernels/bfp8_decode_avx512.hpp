#pragma once
// bfp8_b groups decoded with AVX-512F: int8 magnitude x 2^(e - 133), exact in fp32 (and within bf16's
// 8-bit significand). The AVX-512 kernel files store the values differently (fp32 rows, or bf16
// pairs), so the walk hands each k pair to the caller. Included only by files compiled for AVX-512,
// so everything has internal linkage.
#include <immintrin.h>

#include <cstdint>

#include "ditmk/cpu/kernels/packed_weights.hpp"

namespace ditmk::cpu::detail {
namespace {

// For each k pair of the k_count rows from `group` on and each half h of the 32 columns (16 h to
// 16 h + 15): store(k, h, row k's values, row k + 1's values), k counted from the first row.
template <typename Store>
void decode_bfp8_pairs(const uint8_t* group, int64_t k_count, Store store) {
  for (int64_t g = 0; g < k_count; g += kKAlign, group += PackedWeights::kBfp8GroupBytes) {
    __m512 exponent[2];
    for (int h = 0; h < 2; ++h) {
      const __m512i e = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(group + 16 * h)));
      exponent[h] = _mm512_sub_ps(_mm512_cvtepi32_ps(e), _mm512_set1_ps(133.0f));
    }
    const uint8_t* magnitudes = group + kPanelWidth;
    for (int64_t p = 0; p < kKAlign / 2; ++p) {
      for (int h = 0; h < 2; ++h) {
        const __m512i q = _mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(magnitudes + p * 64 + h * 32)));
        const __m512 even = _mm512_scalef_ps(_mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(q, 16), 16)), exponent[h]);
        const __m512 odd = _mm512_scalef_ps(_mm512_cvtepi32_ps(_mm512_srai_epi32(q, 16)), exponent[h]);
        store(g + 2 * p, h, even, odd);
      }
    }
  }
}

}  // namespace
}  // namespace ditmk::cpu::detail
