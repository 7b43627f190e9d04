// AVX-512 kernels. bf16 and bfp8_b weights run on vdpbf16ps: one instruction multiplies 16 columns
// by one (k, k+1) pair of x, so x is rounded to bf16 pairs first and a k pair of a 32-column panel
// is two zmm loads. A tile is 12 rows x 32 columns: 24 zmm accumulators, 2 for weights, the x pair
// comes as an embedded broadcast, so each weight load feeds 12 dot products. fp32 weights run the
// AVX-512F file's FMA kernel (gemm_avx512f.cpp), in the same tile shape.
#include <immintrin.h>

#include <cstring>

// GCC 12's own AVX-512 headers trip -Wmaybe-uninitialized inside masked-load intrinsics (a known
// false positive of those headers, not of this file).
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "ditmk/cpu/kernels/bfp8_decode_avx512.hpp"
#include "ditmk/cpu/kernels/gemm_driver.hpp"
#include "ditmk/cpu/kernels/gemm_epilogue_avx512.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"

namespace ditmk::cpu::detail {
namespace {

constexpr int kTileRows = 12;

__m512 broadcast_pair(const uint16_t* p) {
  uint32_t bits;
  std::memcpy(&bits, p, sizeof bits);
  return _mm512_castsi512_ps(_mm512_set1_epi32(int(bits)));
}

// Decodes bfp8_b groups to bf16 pairs in the bf16 panel order: the values fit bf16's 8-bit
// significand, so truncating each to its top 16 bits is exact.
void decode_bfp8_block(const uint8_t* group, int64_t k_count, uint16_t* pairs) {
  const __m512i high_half = _mm512_set1_epi32(int(0xffff0000u));
  decode_bfp8_pairs(group, k_count, [&](int64_t k, int h, __m512 even, __m512 odd) {
    const __m512i packed = _mm512_or_si512(_mm512_and_si512(_mm512_castps_si512(odd), high_half),
                                           _mm512_srli_epi32(_mm512_castps_si512(even), 16));
    _mm512_store_si512(pairs + ((k / 2) * kPanelWidth + 16 * h) * 2, packed);
  });
}

struct PairMicro {
  using XElem = uint16_t;
  using BlockElem = uint16_t;
  static constexpr int kTileRows = detail::kTileRows;
  static constexpr int64_t kKPerX = 1;  // one x element per K row
  static constexpr int64_t kBufferElems = kGemmMaxBufferedBlockK * kPanelWidth;

  static const uint16_t* weight_block(const PackedWeights& w, int64_t panel, int64_t k0, int64_t k_count, uint16_t* buffer) {
    if (w.format() == WeightFormat::bf16) return packed_rows<uint16_t>(w, panel, k0);
    decode_bfp8_block(bfp8_groups(w, panel, k0), k_count, buffer);
    return buffer;
  }

  template <int R>
  static void tile(const uint16_t* x, int64_t x_stride, const uint16_t* block, int64_t k_count, float* acc, bool first,
                   Prefetch next) {
    __m512 c[R][2];
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < 2; ++j) c[r][j] = first ? _mm512_setzero_ps() : _mm512_load_ps(acc + r * kPanelWidth + 16 * j);
    for (int64_t kp = 0; kp < k_count / 2; ++kp) {
      next.issue(kp);
      const __m512bh w0 = (__m512bh)_mm512_load_si512(block + kp * 64);
      const __m512bh w1 = (__m512bh)_mm512_load_si512(block + kp * 64 + 32);
#pragma GCC unroll 12
      for (int r = 0; r < R; ++r) {
        const __m512bh xp = (__m512bh)broadcast_pair(x + r * x_stride + 2 * kp);
        c[r][0] = _mm512_dpbf16_ps(c[r][0], w0, xp);
        c[r][1] = _mm512_dpbf16_ps(c[r][1], w1, xp);
      }
    }
    next.issue_rest(k_count / 2);
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < 2; ++j) _mm512_store_ps(acc + r * kPanelWidth + 16 * j, c[r][j]);
  }

  static void epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
    detail::epilogue_row(acc, bias, y, count, act, out);
  }
};

// Columns [k_begin, k_stop) of x rows to bf16 (round to nearest even, as f32_to_bf16), zero past k
// up to k_padded. The conversion treats fp32 subnormals as zero (the instruction's fixed DAZ), which
// f32_to_bf16 does not.
void round_rows_to_bf16(const GemmArgs& args, int64_t k, int64_t k_padded, int64_t k_begin, int64_t k_stop,
                        int64_t out_stride, uint16_t* out) {
  for (int64_t r = 0; r < args.m; ++r) {
    const float* src = args.x + r * args.x_stride;
    uint16_t* dst = out + r * out_stride;
    for (int64_t k0 = k_begin; k0 < k_stop; k0 += 32) {
      const int64_t valid = std::clamp<int64_t>(k - k0, 0, 32);
      const __mmask16 lo = __mmask16((1u << std::min<int64_t>(valid, 16)) - 1);
      const __mmask16 hi = __mmask16((1u << std::max<int64_t>(valid - 16, 0)) - 1);
      const __m512bh both = _mm512_cvtne2ps_pbh(_mm512_maskz_loadu_ps(hi, src + k0 + 16), _mm512_maskz_loadu_ps(lo, src + k0));
      const int64_t width = std::min<int64_t>(32, k_padded - k0);
      const __mmask32 store = width == 32 ? __mmask32(0xffffffffu) : __mmask32((1u << width) - 1);
      _mm512_mask_storeu_epi16(dst + k0, store, (__m512i)both);
    }
  }
}

}  // namespace

void gemm_avx512(const GemmArgs& args) {
  const PackedWeights& w = *args.weights;
  if (w.format() == WeightFormat::fp32) return gemm_avx512f(args);  // FMA: AVX512-BF16 adds nothing
  if (!args.x_prepared) prepare_x_avx512(args, KRange::all(w));
  run_gemm<PairMicro>(args, reinterpret_cast<const uint16_t*>(args.scratch), scratch_row_stride(w), w.k_padded());
}

void prepare_x_avx512(const GemmArgs& args, KRange k) {
  const PackedWeights& w = *args.weights;
  round_rows_to_bf16(args, w.k(), w.k_padded(), k.begin, k.stop(w), scratch_row_stride(w),
                     reinterpret_cast<uint16_t*>(args.scratch));
}

}  // namespace ditmk::cpu::detail
