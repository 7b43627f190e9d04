// int8 GEMM on AVX-VNNI: the VEX form of vpdpbusd on ymm (32 multiply-adds per instruction), for
// CPUs with AVX2 and AVX-VNNI, and for AVX-512 CPUs capped to AVX2. VEX reaches 16 registers only:
// a tile is 3 rows x 32 columns = 12 ymm int32 accumulators + 3 broadcast x quads + 1 weight
// register. The block arithmetic is the AVX512-VNNI kernel's (gemm_int8_avx512vnni.cpp), on ymm.
// x is quantized by the AVX2 int8 file's quantize_x_avx2.
#include <immintrin.h>

#include "ditmk/cpu/kernels/gemm_driver.hpp"
#include "ditmk/cpu/kernels/gemm_epilogue_avx2.hpp"
#include "ditmk/cpu/kernels/gemm_int8_ymm.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"
#include "ditmk/cpu/kernels/vpdpbusd.hpp"

namespace ditmk::cpu::detail {
namespace {

// I32x8 (GCC's own vector type) and the builtin keep the accumulators in registers (see the
// AVX512-VNNI file).
struct Int8Micro : Int8MicroBase {
  static constexpr int kTileRows = 3;

  template <int R>
  static void tile(const Int8XBlock* x, int64_t x_stride, const uint8_t* group, int64_t k_count, float* acc,
                   bool first, Prefetch next) {
    int64_t line = 0;
    for (int64_t b = 0; b < k_count / kInt8Block; ++b, group += PackedWeights::kInt8GroupBytes) {
      const auto* correction = reinterpret_cast<const I32x8*>(group + PackedWeights::kInt8CorrectionsOffset);
      I32x8 c[R][4];
      for (int r = 0; r < R; ++r)
        for (int j = 0; j < 4; ++j) c[r][j] = correction[j];
      const uint8_t* values = group + PackedWeights::kInt8ValuesOffset;
      for (int quad = 0; quad < kInt8Block / 4; ++quad, ++line) {
        next.issue(line);
        I32x8 xq[R];
        for (int r = 0; r < R; ++r) xq[r] = broadcast_quad<I32x8>(x[r * x_stride + b].values + 4 * quad);
        for (int j = 0; j < 4; ++j) {
          const I32x8 wq = reinterpret_cast<const I32x8*>(values + quad * 128)[j];
          for (int r = 0; r < R; ++r) c[r][j] = DITMK_VPDPBUSD_YMM(c[r][j], xq[r], wq);
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

}  // namespace

void gemm_int8_avx_vnni(const GemmArgs& args) {
  run_int8_gemm<Int8Micro>(args, quantize_x_avx2);
}

}  // namespace ditmk::cpu::detail
