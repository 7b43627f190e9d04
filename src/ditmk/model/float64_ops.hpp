#pragma once
// Float64 ops: plain, op by op, weights widened from their stored dtype one row at a time (a whole
// model in float64 would not fit in memory). The reference executor runs on them, and every executor
// computes its load-time and per-call tables with them (model::dit_step_tables, tau_bias_table), so
// the double-precision precompute is the model layer's, shared, not borrowed from the reference.
#include <cstdint>
#include <vector>

#include "ditmk/core/matrix.hpp"
#include "ditmk/model/precompute.hpp"

namespace ditmk::model {

using MatD = Matrix<double>;

struct Float64Ops {
  int threads = 1;
  MatD linear(const MatD& x, const Linear& l, Act act) const;
  MatD linear_kn(const MatD& x, const Linear& l, Act act) const;
  MatD layernorm(const MatD& x, const TensorView* gamma, const TensorView* beta, double eps) const;
  MatD attention(const MatD& q, const MatD& k, const MatD& v, const std::vector<uint8_t>* key_mask, int heads,
                 int head_dim) const;
  void add_inplace(MatD& a, const MatD& b) const;
};

double activate(double x, Act act);
// LayerNorm without affine, then x * (1 + scale) + shift (AdaLN); scale/shift are rows of length D.
MatD layernorm_modulate(const MatD& x, double eps, const double* scale, const double* shift);

}  // namespace ditmk::model
