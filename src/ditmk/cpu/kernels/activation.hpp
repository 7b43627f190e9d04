#pragma once
// The epilogue activations in scalar form (double for the references, float for the portable
// kernels). gelu uses PyTorch's tanh approximation, as GR00T's feed-forward does.
#include <cmath>

#include "ditmk/cpu/kernels/gemm.hpp"

namespace ditmk::cpu {

template <typename T>
T apply_activation(Activation activation, T v) {
  switch (activation) {
    case Activation::none: return v;
    case Activation::relu: return v > T(0) ? v : T(0);
    case Activation::gelu_tanh: {
      const T u = T(0.7978845608028654) * (v + T(0.044715) * v * v * v);
      return T(0.5) * v * (T(1) + std::tanh(u));
    }
    case Activation::silu: return v / (T(1) + std::exp(-v));
  }
  return v;
}

}  // namespace ditmk::cpu
