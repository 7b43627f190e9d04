// int8 GEMM on AVX512-VNNI. vpdpbusd multiplies 4 unsigned bytes of x by 4 signed bytes of one
// weight column and adds the 4 products to that column's int32 lane: 64 multiply-adds per
// instruction, twice vdpbf16ps's 32, on the same two pipes (Zen 5).
//
// Per 32-row block the int32 sums are exact: they start from the block's per-column correction
// (-128 x the column's sum, which removes x's +128 offset) and end as sum(q_x * q_w), < 2^20 in
// magnitude, so the conversion to fp32 is exact too. Then acc = fma(float(sum), w_scale * 2^e_x,
// acc) in fp32, the scale product by vscalefps. Per block, row and 16 columns that is 8 vpdpbusd
// and one fma on the multiply pipes; vcvtdq2ps and vscalefps run on the others. The block order and
// these operations are the same on every int8 path, so all give the same bits.
//
// A tile is 6 rows x 32 columns: 12 zmm int32 sums and 12 fp32 accumulators, all in registers, 2
// for a k quad of weights, 2 for the block's weight scales. Measured on the model's M = 49 shapes
// against 12 rows with the fp32 accumulators in L1: the load-fma-store per block and row made the
// block ends ~40% of the time; held in registers it is ~15% faster overall.
#include <immintrin.h>

// GCC 12's own AVX-512 headers trip -Wmaybe-uninitialized inside masked-load intrinsics (a known
// false positive of those headers, not of this file).
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "ditmk/cpu/kernels/gemm_driver.hpp"
#include "ditmk/cpu/kernels/gemm_epilogue_avx512.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"
#include "ditmk/cpu/kernels/vpdpbusd.hpp"

namespace ditmk::cpu::detail {
namespace {

// The int32 accumulators are the compiler's own vector type and vpdpbusd is called through its
// builtin (vpdpbusd.hpp): with _mm512_dpbusd_epi32's __m512i <-> __v16si casts GCC 12 keeps a
// tile's accumulators in memory (a store after every vpdpbusd), with one type throughout they stay
// in registers.
using I32x16 = __v16si;

struct Int8Micro : Int8MicroBase {
  static constexpr int kTileRows = 6;

  template <int R>
  static void tile(const Int8XBlock* x, int64_t x_stride, const uint8_t* group, int64_t k_count, float* acc,
                   bool first, Prefetch next) {
    __m512 f[R][2];
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < 2; ++j) f[r][j] = first ? _mm512_setzero_ps() : _mm512_load_ps(acc + r * kPanelWidth + 16 * j);
    int64_t line = 0;
    for (int64_t b = 0; b < k_count / kInt8Block; ++b, group += PackedWeights::kInt8GroupBytes) {
      const auto* correction = reinterpret_cast<const I32x16*>(group + PackedWeights::kInt8CorrectionsOffset);
      I32x16 c[R][2];
      for (int r = 0; r < R; ++r)
        for (int j = 0; j < 2; ++j) c[r][j] = correction[j];
      const uint8_t* values = group + PackedWeights::kInt8ValuesOffset;
      for (int quad = 0; quad < kInt8Block / 4; ++quad, ++line) {
        next.issue(line);
        const I32x16 w0 = reinterpret_cast<const I32x16*>(values + quad * 128)[0];
        const I32x16 w1 = reinterpret_cast<const I32x16*>(values + quad * 128)[1];
#pragma GCC unroll 12
        for (int r = 0; r < R; ++r) {
          const I32x16 xq = broadcast_quad<I32x16>(x[r * x_stride + b].values + 4 * quad);
          c[r][0] = DITMK_VPDPBUSD_ZMM(c[r][0], xq, w0);
          c[r][1] = DITMK_VPDPBUSD_ZMM(c[r][1], xq, w1);
        }
      }
      const auto* w_scale = reinterpret_cast<const float*>(group + PackedWeights::kInt8ScalesOffset);
      const __m512 w_scale0 = _mm512_load_ps(w_scale), w_scale1 = _mm512_load_ps(w_scale + 16);
#pragma GCC unroll 12
      for (int r = 0; r < R; ++r) {
        const __m512 x_exponent = _mm512_set1_ps(x[r * x_stride + b].exponent);
        f[r][0] = _mm512_fmadd_ps(__builtin_convertvector(c[r][0], __v16sf), _mm512_scalef_ps(w_scale0, x_exponent), f[r][0]);
        f[r][1] = _mm512_fmadd_ps(__builtin_convertvector(c[r][1], __v16sf), _mm512_scalef_ps(w_scale1, x_exponent), f[r][1]);
      }
    }
    next.issue_rest(line);
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < 2; ++j) _mm512_store_ps(acc + r * kPanelWidth + 16 * j, f[r][j]);
  }

  static void epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
    detail::epilogue_row(acc, bias, y, count, act, out);
  }
};

// Lane i of the result: the largest lane of m[i]. Four rounds fold pairs of vectors, each round
// halving the lanes every vector's partial maxima take (16 -> 8 -> 4 -> 2 -> 1) and keeping them in
// vector order: 45 operations for 16 blocks instead of a 16-lane reduction each.
struct FoldIndices {
  alignas(64) int low[4][16], high[4][16];
  constexpr FoldIndices() : low{}, high{} {
    for (int round = 0, segment = 16; round < 4; ++round, segment /= 2) {
      const int per_input = 16 / segment, half = segment / 2;
      for (int o = 0; o < 16; ++o) {
        const int s = o / half, p = o % half;
        low[round][o] = (s < per_input ? s * segment : 16 + (s - per_input) * segment) + p;
        high[round][o] = low[round][o] + half;
      }
    }
  }
};
constexpr FoldIndices kFold;

__m512 max_of_each(__m512 m[16]) {
  for (int round = 0, count = 16; round < 4; ++round, count /= 2) {
    const __m512i lo = _mm512_load_si512(kFold.low[round]), hi = _mm512_load_si512(kFold.high[round]);
    for (int i = 0; i < count / 2; ++i)
      m[i] = _mm512_max_ps(_mm512_permutex2var_ps(m[2 * i], lo, m[2 * i + 1]), _mm512_permutex2var_ps(m[2 * i], hi, m[2 * i + 1]));
  }
  return m[0];
}

// quantize_int8_activations on `count` (<= 16) consecutive blocks of one row from block b0: the
// same exponents (computed for all blocks at once in integer lanes) and the same fp32 multiply and
// round-to-nearest-even per value, so the same bytes.
void quantize_blocks(const float* row, int64_t k, int64_t b0, int64_t count, Int8XBlock* dst) {
  __m512 m[16];
  for (int64_t i = 0; i < 16; ++i) {
    const int64_t valid = i < count ? std::clamp<int64_t>(k - (b0 + i) * kInt8Block, 0, kInt8Block) : 0;
    const __mmask16 lo = __mmask16((1u << std::min<int64_t>(valid, 16)) - 1);
    const __mmask16 hi = __mmask16((1u << std::max<int64_t>(valid - 16, 0)) - 1);
    const float* src = row + (b0 + i) * kInt8Block;
    m[i] = _mm512_max_ps(_mm512_abs_ps(_mm512_maskz_loadu_ps(lo, src)), _mm512_abs_ps(_mm512_maskz_loadu_ps(hi, src + 16)));
  }
  const __m512 absmax = max_of_each(m);
  // int8_activation_exponent in 16 lanes
  const __m512i top = _mm512_min_epi32(_mm512_sub_epi32(_mm512_srli_epi32(_mm512_castps_si512(absmax), 23), _mm512_set1_epi32(127)),
                                       _mm512_set1_epi32(64));
  __m512i e = _mm512_sub_epi32(top, _mm512_set1_epi32(6));
  const auto pow2_of = [](__m512i n) { return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(n, _mm512_set1_epi32(127)), 23)); };
  const __mmask16 too_big = _mm512_cmp_ps_mask(_mm512_mul_ps(absmax, pow2_of(_mm512_sub_epi32(_mm512_setzero_si512(), e))),
                                               _mm512_set1_ps(127.0f), _CMP_GT_OQ);
  e = _mm512_mask_add_epi32(e, too_big, e, _mm512_set1_epi32(1));
  const __mmask16 nonzero = _mm512_cmp_ps_mask(absmax, _mm512_set1_ps(kInt8ZeroBelow), _CMP_GE_OQ);
  e = _mm512_maskz_mov_epi32(nonzero, e);
  alignas(64) float inverse[16], exponent[16];
  _mm512_store_ps(inverse, _mm512_maskz_mov_ps(nonzero, pow2_of(_mm512_sub_epi32(_mm512_setzero_si512(), e))));
  _mm512_store_ps(exponent, _mm512_cvtepi32_ps(e));
  const __m256i offset = _mm256_set1_epi8(char(0x80));
  for (int64_t i = 0; i < count; ++i) {
    const int64_t valid = std::clamp<int64_t>(k - (b0 + i) * kInt8Block, 0, kInt8Block);
    const __mmask16 lo = __mmask16((1u << std::min<int64_t>(valid, 16)) - 1);
    const __mmask16 hi = __mmask16((1u << std::max<int64_t>(valid - 16, 0)) - 1);
    const float* src = row + (b0 + i) * kInt8Block;
    const __m512 inv = _mm512_set1_ps(inverse[i]);
    const __m128i q0 = _mm512_cvtsepi32_epi8(_mm512_cvtps_epi32(_mm512_mul_ps(_mm512_maskz_loadu_ps(lo, src), inv)));
    const __m128i q1 = _mm512_cvtsepi32_epi8(_mm512_cvtps_epi32(_mm512_mul_ps(_mm512_maskz_loadu_ps(hi, src + 16), inv)));
    const __m256i q = _mm256_inserti128_si256(_mm256_castsi128_si256(q0), q1, 1);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst[b0 + i].values), _mm256_xor_si256(q, offset));
    dst[b0 + i].exponent = exponent[i];
  }
}

}  // namespace

void gemm_int8_avx512_vnni(const GemmArgs& args) {
  run_int8_gemm<Int8Micro>(args, quantize_x_avx512);
}

void quantize_x_avx512(const GemmArgs& args, KRange k) {
  const PackedWeights& w = *args.weights;
  auto* out = reinterpret_cast<Int8XBlock*>(args.scratch);
  const int64_t b_end = k.stop(w) / kInt8Block;
  for (int64_t r = 0; r < args.m; ++r)
    for (int64_t b = k.begin / kInt8Block; b < b_end; b += 16)
      quantize_blocks(args.x + r * args.x_stride, w.k(), b, std::min<int64_t>(16, b_end - b), out + r * int8_row_stride(w));
}

}  // namespace ditmk::cpu::detail
