// AVX-512F kernels, for CPUs with AVX-512 but no bf16 dot product (Skylake-SP to Ice Lake, the most
// common cloud servers): every format runs zmm FMA on fp32 values. A tile is 12 rows x 32 columns:
// 24 zmm accumulators, the weights of one K row in two more, x broadcast from memory.
// - bf16 weights are read in place and widened in registers: a K pair of a 32-column panel is two
//   zmm loads, and a shift and a mask make the four zmm of floats (the low half of each 32-bit lane
//   is row k, the high half row k + 1), so the panel streams at 2 bytes a weight.
// - bfp8_b blocks are decoded to fp32 into a buffer once per block, as the AVX2 kernels do.
// - fp32 weights are read in place (the AVX512-BF16 kernels run them through this file too).
// x is rounded to bf16-valued floats (prepare_x_avx2), and every output sums its products in K
// order, so the accumulators are the AVX2 kernel's bit for bit, twice as wide a step.
#include <immintrin.h>

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

// acc[R x 32] (+)= x[R, k_count] * block[k_count x 32] with fp32 weights in panel order.
template <int R>
void fp32_tile(const float* x, int64_t x_stride, const float* block, int64_t k_count, float* acc, bool first, Prefetch next) {
  __m512 c[R][2];
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < 2; ++j) c[r][j] = first ? _mm512_setzero_ps() : _mm512_load_ps(acc + r * kPanelWidth + 16 * j);
  for (int64_t k = 0; k < k_count; ++k) {
    next.issue(k);
    const __m512 w0 = _mm512_load_ps(block + k * kPanelWidth);
    const __m512 w1 = _mm512_load_ps(block + k * kPanelWidth + 16);
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      const __m512 xv = _mm512_set1_ps(x[r * x_stride + k]);
      c[r][0] = _mm512_fmadd_ps(w0, xv, c[r][0]);
      c[r][1] = _mm512_fmadd_ps(w1, xv, c[r][1]);
    }
  }
  next.issue_rest(k_count);
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < 2; ++j) _mm512_store_ps(acc + r * kPanelWidth + 16 * j, c[r][j]);
}

struct Fp32Micro {
  using XElem = float;
  using BlockElem = float;
  static constexpr int kTileRows = detail::kTileRows;
  static constexpr int64_t kKPerX = 1;  // one x element per K row
  static constexpr int64_t kBufferElems = 1;  // fp32 panels are read in place

  static const float* weight_block(const PackedWeights& w, int64_t panel, int64_t k0, int64_t, float*) {
    return packed_rows<float>(w, panel, k0);
  }

  template <int R>
  static void tile(const float* x, int64_t x_stride, const float* block, int64_t k_count, float* acc, bool first,
                   Prefetch next) {
    fp32_tile<R>(x, x_stride, block, k_count, acc, first, next);
  }

  static void epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
    detail::epilogue_row(acc, bias, y, count, act, out);
  }
};

// bfp8_b groups to fp32 in panel order: the same values the AVX2 kernel's table of steps gives.
void decode_bfp8_block(const uint8_t* group, int64_t k_count, float* out) {
  decode_bfp8_pairs(group, k_count, [&](int64_t k, int h, __m512 even, __m512 odd) {
    _mm512_store_ps(out + k * kPanelWidth + 16 * h, even);
    _mm512_store_ps(out + (k + 1) * kPanelWidth + 16 * h, odd);
  });
}

struct Bfp8Micro : Fp32Micro {
  static constexpr int64_t kBufferElems = kGemmMaxBufferedBlockK * kPanelWidth;

  static const float* weight_block(const PackedWeights& w, int64_t panel, int64_t k0, int64_t k_count, float* buffer) {
    decode_bfp8_block(bfp8_groups(w, panel, k0), k_count, buffer);
    return buffer;
  }
};

struct WidenMicro {
  using XElem = float;
  using BlockElem = uint16_t;
  static constexpr int kTileRows = detail::kTileRows;
  static constexpr int64_t kKPerX = 1;  // one x element per K row
  static constexpr int64_t kBufferElems = 1;  // bf16 panels are read in place

  static const uint16_t* weight_block(const PackedWeights& w, int64_t panel, int64_t k0, int64_t, uint16_t*) {
    return packed_rows<uint16_t>(w, panel, k0);
  }

  template <int R>
  static void tile(const float* x, int64_t x_stride, const uint16_t* block, int64_t k_count, float* acc, bool first,
                   Prefetch next) {
    __m512 c[R][2];
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < 2; ++j) c[r][j] = first ? _mm512_setzero_ps() : _mm512_load_ps(acc + r * kPanelWidth + 16 * j);
    const __m512i high_half = _mm512_set1_epi32(int(0xffff0000u));
    for (int64_t kp = 0; kp < k_count / 2; ++kp) {
      next.issue(kp);
      const __m512i pair0 = _mm512_load_si512(block + kp * 64);
      const __m512i pair1 = _mm512_load_si512(block + kp * 64 + 32);
      const __m512 even0 = _mm512_castsi512_ps(_mm512_slli_epi32(pair0, 16));
      const __m512 even1 = _mm512_castsi512_ps(_mm512_slli_epi32(pair1, 16));
      const __m512 odd0 = _mm512_castsi512_ps(_mm512_and_si512(pair0, high_half));
      const __m512 odd1 = _mm512_castsi512_ps(_mm512_and_si512(pair1, high_half));
#pragma GCC unroll 12
      for (int r = 0; r < R; ++r) {
        const float* xr = x + r * x_stride + 2 * kp;
        const __m512 x_even = _mm512_set1_ps(xr[0]);
        c[r][0] = _mm512_fmadd_ps(even0, x_even, c[r][0]);
        c[r][1] = _mm512_fmadd_ps(even1, x_even, c[r][1]);
        const __m512 x_odd = _mm512_set1_ps(xr[1]);
        c[r][0] = _mm512_fmadd_ps(odd0, x_odd, c[r][0]);
        c[r][1] = _mm512_fmadd_ps(odd1, x_odd, c[r][1]);
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

}  // namespace

void gemm_avx512f(const GemmArgs& args) {
  const PackedWeights& w = *args.weights;
  if (w.format() == WeightFormat::fp32) return run_gemm<Fp32Micro>(args, args.x, args.x_stride, w.k());
  if (!args.x_prepared) prepare_x_avx2(args, KRange::all(w));
  const auto* x = reinterpret_cast<const float*>(args.scratch);
  if (w.format() == WeightFormat::bf16) return run_gemm<WidenMicro>(args, x, scratch_row_stride(w), w.k_padded());
  run_gemm<Bfp8Micro>(args, x, scratch_row_stride(w), w.k_padded());
}

}  // namespace ditmk::cpu::detail
