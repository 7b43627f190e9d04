#pragma once
// LayerNorm over each row of x, with fp32 statistics, an optional affine (gamma, beta) and an
// optional AdaLN modulation: out = (LN(x) * gamma + beta) * (1 + scale) + shift, where scale and
// shift are one row of `cols` values applied to every row (the per-step rows of the action head).
#include <cstdint>

namespace ditmk::cpu {

struct LayerNormArgs {
  const float* x = nullptr;
  int64_t x_stride = 0;
  float* y = nullptr;  // may equal x (in place)
  int64_t y_stride = 0;
  int64_t rows = 0, cols = 0;
  float eps = 1e-5f;
  const float* gamma = nullptr;  // cols values or null (no affine)
  const float* beta = nullptr;   // cols values or null
  const float* scale = nullptr;  // cols values or null (no modulation); shift must be given with it
  const float* shift = nullptr;
};

// Throws ditmk::Error naming the field when the arguments are inconsistent.
void layer_norm(const LayerNormArgs& args);
// Same result in double precision, rounded to float on store.
void layer_norm_reference(const LayerNormArgs& args);

// Shared argument check of both.
void check_layer_norm_args(const LayerNormArgs& args);

}  // namespace ditmk::cpu
