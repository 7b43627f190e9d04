#pragma once
// Seeded random inputs for the kernel tests: every test draws its own stream.
#include <cstdint>
#include <vector>

#include "ditmk/core/rng.hpp"
#include "ditmk/core/tensor.hpp"

namespace ditmk::cpu::testing {

inline std::vector<float> random_normal(std::size_t count, uint64_t stream, float scale = 1.0f, float mean = 0.0f) {
  const CounterRng rng(20240611, stream);
  std::vector<float> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = mean + scale * float(rng.normal(i));
  return out;
}

inline Tensor random_tensor(DType dtype, Shape shape, uint64_t stream, float scale = 1.0f) {
  Tensor t(dtype, shape);
  const std::vector<float> values = random_normal(std::size_t(t.numel()), stream, scale);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::F32) t.data<float>()[i] = values[i];
    else if (dtype == DType::BF16) t.data<uint16_t>()[i] = f32_to_bf16(values[i]);
    else t.data<uint16_t>()[i] = f32_to_f16(values[i]);
  }
  return t;
}

}  // namespace ditmk::cpu::testing
