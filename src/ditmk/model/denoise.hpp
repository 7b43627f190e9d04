#pragma once
// What every executor returns for one call, and the Euler rule they all share.
#include <string>
#include <vector>

#include "ditmk/core/matrix.hpp"
#include "ditmk/core/tensor.hpp"
#include "ditmk/model/config.hpp"

namespace ditmk::model {

struct DenoiseResult {
  Matrix<double> actions;                  // [H, A] normalised actions (no clipping)
  std::vector<Matrix<double>> velocities;  // per step, the decoder output v [H, A]
  std::vector<std::string> warnings;       // inputs computed as released that a caller should know of
};

// Where a call's Euler loop starts: x_0 [H, A] and how far each action row moves per step, x += dt * v *
// row_strength[r] (empty: every row moves fully, as every release does without real-time chunking,
// model/realtime_chunking.hpp).
struct EulerStart {
  Matrix<double> x0;
  std::vector<double> row_strength;
  std::vector<std::string> warnings;  // one line each: an input the release computes with a quirk
};

// Euler step size: the 4 steps cover t in [0, 1).
inline double euler_dt(const ModelConfig& config) { return 1.0 / config.n_steps; }

// The noise x_0 as [H, A] doubles; Error naming `what` when its shape is not [H, A] or has non-finite values.
Matrix<double> noise_matrix(const TensorView& noise, const ModelConfig& config, const std::string& what);

}  // namespace ditmk::model
