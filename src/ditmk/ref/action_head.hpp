#pragma once
// The reference action head: MODEL.md's math op by op in float64. The oracle every other executor
// is measured against; no tricks, no fusion, no reduced precision.
#include <span>

#include "ditmk/model/denoise.hpp"
#include "ditmk/model/precompute.hpp"
#include "ditmk/model/float64_ops.hpp"

namespace ditmk::ref {

using model::Act;
using model::Float64Ops;
using model::MatD;

class ActionHead {
 public:
  ActionHead(const model::Weights& weights, int embodiment, int threads);

  // row_strength: model::EulerStart's (empty: every row moves fully).
  model::DenoiseResult run(const model::Observation& obs, const Matrix<double>& noise,
                           std::span<const double> row_strength = {}) const;
  // The 4 Euler steps from noise on an already computed call (another executor's precompute, say).
  model::DenoiseResult denoise(const model::CallInputs<double>& in, const Matrix<double>& noise,
                               std::span<const double> row_strength = {}) const;
  // One DiT call of step s on the Euler state x: the velocity [H, A].
  MatD velocity(const model::CallInputs<double>& in, int step, const MatD& x) const;

  const model::StepTables<double>& step_tables() const { return tables_; }
  const Float64Ops& ops() const { return ops_; }

 private:
  MatD dit_block(int b, const model::CallInputs<double>& in, int step, MatD h) const;
  const model::Weights& w_;
  model::EmbodimentWeights e_;
  Float64Ops ops_;
  model::StepTables<double> tables_;
};

}  // namespace ditmk::ref
