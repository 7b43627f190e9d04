#include <vector>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/activation.hpp"
#include "ditmk/cpu/kernels/gemm.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"

namespace ditmk::cpu {

void gemm_reference(const GemmArgs& args) {
  require(args.weights != nullptr && args.x != nullptr && args.y != nullptr, "gemm_reference: null operand");
  const PackedWeights& w = *args.weights;
  if (w.format() == WeightFormat::int8) return detail::gemm_int8_reference(args);
  const bool round_x = w.format() != WeightFormat::fp32;
  std::vector<double> x(std::size_t(args.m * w.k()));
  for (int64_t r = 0; r < args.m; ++r)
    for (int64_t k = 0; k < w.k(); ++k) {
      const float v = args.x[r * args.x_stride + k];
      x[std::size_t(r * w.k() + k)] = round_x ? round_to_bf16(v) : v;
    }
  std::vector<double> column(std::size_t(w.k()));
  for (int64_t n = args.n_begin; n < args.n_end; ++n) {
    for (int64_t k = 0; k < w.k(); ++k) column[std::size_t(k)] = w.value(n, k);
    for (int64_t r = 0; r < args.m; ++r) {
      double sum = args.bias ? args.bias[n] : 0.0;
      for (int64_t k = 0; k < w.k(); ++k) sum += x[std::size_t(r * w.k() + k)] * column[std::size_t(k)];
      const double v = apply_activation(args.activation, sum);
      float& y = args.y[r * args.y_stride + n];
      y = float(args.output == OutputMode::accumulate ? double(y) + v : v);
    }
  }
}

}  // namespace ditmk::cpu
