// The int8 GEMM's oracle, kept free of the kernels' tricks: x quantized by the scalar
// quantize_int8_activations, signed products summed per block in 64-bit integers (no +128 offset, no
// correction: the kernels must remove theirs exactly), then the scale application in fp32 in block
// order and the epilogue, as every int8 kernel does them.
#include <cmath>
#include <vector>

#include "ditmk/cpu/kernels/activation.hpp"
#include "ditmk/cpu/kernels/gemm.hpp"

namespace ditmk::cpu::detail {

void gemm_int8_reference(const GemmArgs& args) {
  const PackedWeights& w = *args.weights;
  const int64_t blocks = w.k_padded() / kInt8Block;
  std::vector<int8_t> qx(std::size_t(args.m * w.k_padded()));
  std::vector<int> x_exponent(std::size_t(args.m * blocks));
  for (int64_t r = 0; r < args.m; ++r)
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t k0 = b * kInt8Block, valid = std::min(kInt8Block, std::max<int64_t>(0, w.k() - k0));
      x_exponent[std::size_t(r * blocks + b)] =
          quantize_int8_activations(args.x + r * args.x_stride + k0, valid, qx.data() + r * w.k_padded() + k0);
    }
  for (int64_t n = args.n_begin; n < args.n_end; ++n) {
    for (int64_t r = 0; r < args.m; ++r) {
      float acc = 0.0f;
      for (int64_t b = 0; b < blocks; ++b) {
        int64_t sum = 0;
        for (int64_t k = b * kInt8Block; k < (b + 1) * kInt8Block; ++k)
          sum += int64_t(qx[std::size_t(r * w.k_padded() + k)]) * w.int8_value(n, k);
        const float s = w.int8_scale(n, b * kInt8Block) * pow2(x_exponent[std::size_t(r * blocks + b)]);
        acc = std::fma(float(sum), s, acc);
      }
      float v = args.bias ? acc + args.bias[n] : acc;
      v = float(apply_activation(args.activation, double(v)));
      float& y = args.y[r * args.y_stride + n];
      y = args.output == OutputMode::accumulate ? v + y : v;
    }
  }
}

}  // namespace ditmk::cpu::detail
