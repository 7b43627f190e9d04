// AVX2 + FMA kernels. There is no bf16 dot product, so bf16 and bfp8_b blocks are widened to fp32
// [k][32] on the stack once per block (one shift or mask per value) and every tile runs fp32 FMA:
// 3 rows x 32 columns = 12 ymm accumulators + 3 broadcasts + 1 weight register, the 16 AVX2 has.
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "ditmk/core/dtype.hpp"

#include "ditmk/cpu/kernels/gemm_driver.hpp"
#include "ditmk/cpu/kernels/gemm_epilogue_avx2.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"

namespace ditmk::cpu::detail {
namespace {

struct Micro {
  using XElem = float;
  using BlockElem = float;
  static constexpr int kTileRows = 3;
  static constexpr int64_t kKPerX = 1;  // one x element per K row
  static constexpr int64_t kBufferElems = kGemmMaxBufferedBlockK * kPanelWidth;

  static const float* weight_block(const PackedWeights& w, int64_t panel, int64_t k0, int64_t k_count, float* buffer) {
    if (w.format() == WeightFormat::fp32) return packed_rows<float>(w, panel, k0);
    if (w.format() == WeightFormat::bf16) {
      const uint16_t* pairs = packed_rows<uint16_t>(w, panel, k0);
      const __m256i high_half = _mm256_set1_epi32(int(0xffff0000u));
      for (int64_t k = 0; k < k_count; k += 2) {
        for (int j = 0; j < 4; ++j) {
          const __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(pairs + k * kPanelWidth + 16 * j));
          _mm256_store_ps(buffer + k * kPanelWidth + 8 * j, _mm256_castsi256_ps(_mm256_slli_epi32(v, 16)));
          _mm256_store_ps(buffer + (k + 1) * kPanelWidth + 8 * j, _mm256_castsi256_ps(_mm256_and_si256(v, high_half)));
        }
      }
      return buffer;
    }
    const float* steps = bfp8_step_table();
    const uint8_t* group = bfp8_groups(w, panel, k0);
    for (int64_t g = 0; g < k_count; g += kKAlign, group += PackedWeights::kBfp8GroupBytes) {
      __m256 step[4];
      for (int j = 0; j < 4; ++j) {
        const __m128i e = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(group + 8 * j));
        step[j] = _mm256_i32gather_ps(steps, _mm256_cvtepu8_epi32(e), 4);
      }
      for (int64_t p = 0; p < kKAlign / 2; ++p) {
        for (int j = 0; j < 4; ++j) {
          const auto* src = reinterpret_cast<const __m128i*>(group + kPanelWidth + p * 64 + 16 * j);
          const __m256i q = _mm256_cvtepi8_epi16(_mm_loadu_si128(src));
          const __m256 even = _mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_slli_epi32(q, 16), 16));
          const __m256 odd = _mm256_cvtepi32_ps(_mm256_srai_epi32(q, 16));
          _mm256_store_ps(buffer + (g + 2 * p) * kPanelWidth + 8 * j, _mm256_mul_ps(even, step[j]));
          _mm256_store_ps(buffer + (g + 2 * p + 1) * kPanelWidth + 8 * j, _mm256_mul_ps(odd, step[j]));
        }
      }
    }
    return buffer;
  }

  template <int R>
  static void tile(const float* x, int64_t x_stride, const float* block, int64_t k_count, float* acc, bool first,
                   Prefetch next) {
    __m256 c[R][4];
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < 4; ++j) c[r][j] = first ? _mm256_setzero_ps() : _mm256_load_ps(acc + r * kPanelWidth + 8 * j);
    for (int64_t k = 0; k < k_count; ++k) {
      next.issue(k);
      __m256 xv[R];
      for (int r = 0; r < R; ++r) xv[r] = _mm256_broadcast_ss(x + r * x_stride + k);
      for (int j = 0; j < 4; ++j) {
        const __m256 wv = _mm256_load_ps(block + k * kPanelWidth + 8 * j);
        for (int r = 0; r < R; ++r) c[r][j] = _mm256_fmadd_ps(wv, xv[r], c[r][j]);
      }
    }
    next.issue_rest(k_count);
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < 4; ++j) _mm256_store_ps(acc + r * kPanelWidth + 8 * j, c[r][j]);
  }

  static void epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
    detail::epilogue_row(acc, bias, y, count, act, out);
  }
};

}  // namespace

void gemm_avx2(const GemmArgs& args) {
  const PackedWeights& w = *args.weights;
  if (w.format() == WeightFormat::fp32) return run_gemm<Micro>(args, args.x, args.x_stride, w.k());
  if (!args.x_prepared) prepare_x_avx2(args, KRange::all(w));
  run_gemm<Micro>(args, reinterpret_cast<const float*>(args.scratch), scratch_row_stride(w), w.k_padded());
}

// prepare_x_portable 8 floats at a time: f32_to_bf16's round to nearest even (and quiet NaN) on the
// bits, the low half cleared, so the same bytes.
void prepare_x_avx2(const GemmArgs& args, KRange range) {
  const PackedWeights& w = *args.weights;
  auto* x = reinterpret_cast<float*>(args.scratch);
  const int64_t stride = scratch_row_stride(w);
  const int64_t valid_end = std::min(range.stop(w), w.k());
  const int64_t vector_end = range.begin + (valid_end - range.begin) / 8 * 8;
  const __m256i magnitude = _mm256_set1_epi32(0x7fffffff), infinity = _mm256_set1_epi32(0x7f800000);
  const __m256i quiet = _mm256_set1_epi32(0x00400000), high_half = _mm256_set1_epi32(int(0xffff0000u));
  const __m256i half_ulp = _mm256_set1_epi32(0x7fff), one = _mm256_set1_epi32(1);
  for (int64_t r = 0; r < args.m; ++r) {
    const float* src = args.x + r * args.x_stride;
    float* dst = x + r * stride;
    for (int64_t k = range.begin; k < vector_end; k += 8) {
      const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + k));
      const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(bits, magnitude), infinity);
      const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(bits, 16), one);
      const __m256i rounded = _mm256_add_epi32(bits, _mm256_add_epi32(half_ulp, odd));
      const __m256i chosen = _mm256_blendv_epi8(rounded, _mm256_or_si256(bits, quiet), nan);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + k), _mm256_and_si256(chosen, high_half));
    }
    for (int64_t k = vector_end; k < range.stop(w); ++k) dst[k] = k < w.k() ? round_to_bf16(src[k]) : 0.0f;
  }
}

}  // namespace ditmk::cpu::detail
