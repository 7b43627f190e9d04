// int8 GEMM in plain C++ for CPUs without VNNI: the same blocks, offset, correction and fp32 scale
// application as the vpdpbusd kernels, in the same order, so the same bits.
#include <cmath>

#include "ditmk/cpu/kernels/gemm_driver.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"

namespace ditmk::cpu::detail {
namespace {

struct Int8Micro : Int8MicroBase {
  static constexpr int kTileRows = 4;

  template <int R>
  static void tile(const Int8XBlock* x, int64_t x_stride, const uint8_t* group, int64_t k_count, float* acc,
                   bool first, Prefetch next) {
    next.issue_rest(0);
    for (int64_t b = 0; b < k_count / kInt8Block; ++b, group += PackedWeights::kInt8GroupBytes) {
      const auto* correction = reinterpret_cast<const int32_t*>(group + PackedWeights::kInt8CorrectionsOffset);
      const auto* values = reinterpret_cast<const int8_t*>(group + PackedWeights::kInt8ValuesOffset);
      const auto* w_scale = reinterpret_cast<const float*>(group + PackedWeights::kInt8ScalesOffset);
      for (int r = 0; r < R; ++r) {
        const Int8XBlock& xb = x[r * x_stride + b];
        int32_t sum[kPanelWidth];
        for (int64_t c = 0; c < kPanelWidth; ++c) sum[c] = correction[c];
        for (int64_t quad = 0; quad < kInt8Block / 4; ++quad)
          for (int64_t c = 0; c < kPanelWidth; ++c)
            for (int64_t i = 0; i < 4; ++i) sum[c] += int32_t(xb.values[quad * 4 + i]) * values[(quad * kPanelWidth + c) * 4 + i];
        float* a = acc + r * kPanelWidth;
        const float x_scale = pow2(int(xb.exponent));
        for (int64_t c = 0; c < kPanelWidth; ++c)
          a[c] = std::fma(float(sum[c]), w_scale[c] * x_scale, first && b == 0 ? 0.0f : a[c]);
      }
    }
  }

  static void epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
    portable_epilogue_row(acc, bias, y, count, act, out);
  }
};

}  // namespace

void quantize_x_portable(const GemmArgs& args, KRange k) {
  const PackedWeights& w = *args.weights;
  auto* out = reinterpret_cast<Int8XBlock*>(args.scratch);
  for (int64_t r = 0; r < args.m; ++r) {
    for (int64_t b = k.begin / kInt8Block; b < k.stop(w) / kInt8Block; ++b) {
      const int64_t valid = std::clamp<int64_t>(w.k() - b * kInt8Block, 0, kInt8Block);
      int8_t q[kInt8Block];
      Int8XBlock& dst = out[r * int8_row_stride(w) + b];
      dst.exponent = float(quantize_int8_activations(args.x + r * args.x_stride + b * kInt8Block, valid, q));
      for (int64_t i = 0; i < kInt8Block; ++i) dst.values[i] = uint8_t(q[i] + 128);
    }
  }
}

void gemm_int8_portable(const GemmArgs& args) {
  run_int8_gemm<Int8Micro>(args, quantize_x_portable);
}

}  // namespace ditmk::cpu::detail
