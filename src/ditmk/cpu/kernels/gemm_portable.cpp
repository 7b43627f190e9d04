// Plain C++ kernels: correct everywhere, fast nowhere. Weight blocks are widened to fp32 [k][32] on
// the stack, x (for bf16/bfp8_b weights) is rounded to bf16 but kept as float.
#include <cstring>

#include "ditmk/cpu/kernels/activation.hpp"
#include "ditmk/cpu/kernels/gemm_driver.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"

namespace ditmk::cpu::detail {
namespace {

struct PortableMicro {
  using XElem = float;
  using BlockElem = float;
  static constexpr int kTileRows = 4;
  static constexpr int64_t kKPerX = 1;  // one x element per K row
  static constexpr int64_t kBufferElems = kGemmMaxBufferedBlockK * kPanelWidth;

  static const float* weight_block(const PackedWeights& w, int64_t panel, int64_t k0, int64_t k_count, float* buffer) {
    if (w.format() == WeightFormat::fp32) return packed_rows<float>(w, panel, k0);
    if (w.format() == WeightFormat::bf16) {
      const uint16_t* pairs = packed_rows<uint16_t>(w, panel, k0);
      for (int64_t k = 0; k < k_count; k += 2)
        for (int64_t c = 0; c < kPanelWidth; ++c)
          for (int64_t half = 0; half < 2; ++half)
            buffer[(k + half) * kPanelWidth + c] = bf16_to_f32(pairs[(k * kPanelWidth) + 2 * c + half]);
      return buffer;
    }
    const float* steps = bfp8_step_table();
    const uint8_t* group = bfp8_groups(w, panel, k0);
    for (int64_t g = 0; g < k_count; g += kKAlign, group += PackedWeights::kBfp8GroupBytes) {
      const auto* magnitudes = reinterpret_cast<const int8_t*>(group + kPanelWidth);
      for (int64_t k = 0; k < kKAlign; ++k)
        for (int64_t c = 0; c < kPanelWidth; ++c)
          buffer[(g + k) * kPanelWidth + c] = float(magnitudes[(k / 2 * kPanelWidth + c) * 2 + k % 2]) * steps[group[c]];
    }
    return buffer;
  }

  template <int R>
  static void tile(const float* x, int64_t x_stride, const float* block, int64_t k_count, float* acc, bool first,
                   Prefetch next) {
    float c[R][kPanelWidth];
    if (first) std::memset(c, 0, sizeof c);
    else std::memcpy(c, acc, sizeof c);
    next.issue_rest(0);
    for (int64_t k = 0; k < k_count; ++k)
      for (int r = 0; r < R; ++r)
        for (int64_t j = 0; j < kPanelWidth; ++j) c[r][j] += x[r * x_stride + k] * block[k * kPanelWidth + j];
    std::memcpy(acc, c, sizeof c);
  }

  static void epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
    portable_epilogue_row(acc, bias, y, count, act, out);
  }
};

}  // namespace

void portable_epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out) {
  for (int64_t j = 0; j < count; ++j) {
    const float v = apply_activation(act, bias ? acc[j] + bias[j] : acc[j]);
    y[j] = out == OutputMode::accumulate ? y[j] + v : v;
  }
}

void prepare_x_portable(const GemmArgs& args, KRange range) {
  const PackedWeights& w = *args.weights;
  auto* x = reinterpret_cast<float*>(args.scratch);
  const int64_t stride = scratch_row_stride(w);
  for (int64_t r = 0; r < args.m; ++r) {
    for (int64_t k = range.begin; k < range.stop(w); ++k)
      x[r * stride + k] = k < w.k() ? round_to_bf16(args.x[r * args.x_stride + k]) : 0.0f;
  }
}

void gemm_portable(const GemmArgs& args) {
  const PackedWeights& w = *args.weights;
  if (w.format() == WeightFormat::fp32) return run_gemm<PortableMicro>(args, args.x, args.x_stride, w.k());
  if (!args.x_prepared) prepare_x_portable(args, KRange::all(w));
  run_gemm<PortableMicro>(args, reinterpret_cast<const float*>(args.scratch), scratch_row_stride(w), w.k_padded());
}

}  // namespace ditmk::cpu::detail
