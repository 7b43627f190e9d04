// int8 GEMM on plain AVX2, for CPUs without VNNI on ymm (Zen 3, Intel before Alder Lake): the
// products by vpmaddubsw (unsigned x signed bytes, adjacent pairs summed into int16) and vpmaddwd
// with ones (int16 pairs into the int32 lane vpdpbusd would fill), then vpaddd.
//
// vpmaddubsw saturates its int16 pair sums, so it cannot take x with the +128 offset the vpdpbusd
// kernels use ((x + 128) * w pairs reach 2 * 255 * 127). It takes |x| and w with x's sign instead
// (vpsignb): x and w both lie in [-127, 127], so a pair sum is at most 2 * 127 * 127 = 32258 and
// nothing saturates. The sums are then x . w itself, so the per-column offset correction is not
// applied: the int32 sums, and so the bits of y, equal the other int8 kernels'.
//
// Registers: 16 ymm (VEX). A tile is 2 rows x 32 columns: 8 accumulators, per row the signed x quad
// and its magnitude (4), a weight register, the ones and a product in flight.
//
// Also x's quantization for AVX2 CPUs (it needs AVX2 only), used by the AVX-VNNI kernel as well.
#include <immintrin.h>

#include <algorithm>

#include "ditmk/cpu/kernels/gemm_driver.hpp"
#include "ditmk/cpu/kernels/gemm_epilogue_avx2.hpp"
#include "ditmk/cpu/kernels/gemm_int8_ymm.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"

namespace ditmk::cpu::detail {
namespace {

struct Int8Micro : Int8MicroBase {
  static constexpr int kTileRows = 2;

  template <int R>
  static void tile(const Int8XBlock* x, int64_t x_stride, const uint8_t* group, int64_t k_count, float* acc,
                   bool first, Prefetch next) {
    const __m256i ones = _mm256_set1_epi16(1);
    const __m256i offset = _mm256_set1_epi8(char(0x80));
    int64_t line = 0;
    for (int64_t b = 0; b < k_count / kInt8Block; ++b, group += PackedWeights::kInt8GroupBytes) {
      I32x8 c[R][4] = {};
      const uint8_t* values = group + PackedWeights::kInt8ValuesOffset;
      for (int quad = 0; quad < kInt8Block / 4; ++quad, ++line) {
        next.issue(line);
        __m256i x_signed[R], x_magnitude[R];
        for (int r = 0; r < R; ++r) {
          // (x + 128) xor 0x80 is x as a signed byte
          const __m256i quad_x = __m256i(broadcast_quad<I32x8>(x[r * x_stride + b].values + 4 * quad));
          x_signed[r] = _mm256_xor_si256(quad_x, offset);
          x_magnitude[r] = _mm256_abs_epi8(x_signed[r]);
        }
        for (int j = 0; j < 4; ++j) {
          const __m256i wq = _mm256_load_si256(reinterpret_cast<const __m256i*>(values + quad * 128) + j);
          for (int r = 0; r < R; ++r) {
            const __m256i pairs = _mm256_maddubs_epi16(x_magnitude[r], _mm256_sign_epi8(wq, x_signed[r]));
            c[r][j] += I32x8(_mm256_madd_epi16(pairs, ones));
          }
        }
      }
      add_scaled_block<R>(c, x, x_stride, b, group, acc, first && b == 0);
    }
    next.issue_rest(line);
  }

  static void epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
    detail::epilogue_row(acc, bias, y, count, act, out);
  }
};

// The largest of 8 lanes, in every lane.
__m256 max_across(__m256 v) {
  v = _mm256_max_ps(v, _mm256_permute2f128_ps(v, v, 1));
  v = _mm256_max_ps(v, _mm256_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
  return _mm256_max_ps(v, _mm256_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)));
}

}  // namespace

void gemm_int8_avx2(const GemmArgs& args) {
  run_int8_gemm<Int8Micro>(args, quantize_x_avx2);
}

// quantize_int8_activations on 32 floats at a time: the same exponent and the same fp32 multiply and
// round-to-nearest-even per value, so the same bytes.
void quantize_x_avx2(const GemmArgs& args, KRange k) {
  const PackedWeights& w = *args.weights;
  auto* out = reinterpret_cast<Int8XBlock*>(args.scratch);
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256i lane_index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  // packs/packus interleave 128-bit lanes; this puts the 32 bytes back in k order
  const __m256i lane_order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  for (int64_t r = 0; r < args.m; ++r) {
    const float* src = args.x + r * args.x_stride;
    Int8XBlock* dst = out + r * int8_row_stride(w);
    for (int64_t b = k.begin / kInt8Block; b < k.stop(w) / kInt8Block; ++b) {
      const int64_t valid = std::clamp<int64_t>(w.k() - b * kInt8Block, 0, kInt8Block);
      __m256 v[4];
      for (int i = 0; i < 4; ++i) {
        const __m256i in_range = _mm256_cmpgt_epi32(_mm256_set1_epi32(int(valid - 8 * i)), lane_index);
        v[i] = _mm256_maskload_ps(src + b * kInt8Block + 8 * i, in_range);
      }
      __m256 m = _mm256_andnot_ps(sign, v[0]);
      for (int i = 1; i < 4; ++i) m = _mm256_max_ps(m, _mm256_andnot_ps(sign, v[i]));
      const float absmax = _mm256_cvtss_f32(max_across(m));
      const int e = int8_activation_exponent(absmax);
      const __m256 inv = _mm256_set1_ps(absmax >= kInt8ZeroBelow ? pow2(-e) : 0.0f);
      __m256i q[4];
      for (int i = 0; i < 4; ++i) q[i] = _mm256_cvtps_epi32(_mm256_mul_ps(v[i], inv));
      const __m256i words = _mm256_packs_epi32(q[0], q[1]), words_hi = _mm256_packs_epi32(q[2], q[3]);
      __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(words, words_hi), lane_order);
      bytes = _mm256_xor_si256(bytes, _mm256_set1_epi8(char(0x80)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst[b].values), bytes);
      dst[b].exponent = float(e);
    }
  }
}

}  // namespace ditmk::cpu::detail
