#pragma once
// N1.7's real-time chunking, as its released head computes it (gr00t_n1d7 get_action_with_features).
// A robot executes one action chunk while the next is computed; to keep the two continuous, the
// caller hands in the previous chunk. The initial actions' first `overlap_steps` rows are then that
// chunk's rows [action_horizon - overlap_steps, action_horizon), and every Euler step moves row r by
// dt * v * strength[r]: 0 for the first `frozen_steps` rows (what the robot executes during the
// inference latency), an exponential ramp up to `overlap_steps`, 1 after. N1.5 and N1.6 have none.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ditmk/core/matrix.hpp"
#include "ditmk/core/tensor.hpp"
#include "ditmk/model/config.hpp"
#include "ditmk/model/denoise.hpp"

namespace ditmk::model {

// The release's options, by its names.
struct RealTimeChunking {
  int64_t action_horizon = 0;  // rows of the previous chunk that are real (before padding)
  int64_t overlap_steps = 0;   // leading rows inpainted from the previous chunk
  int64_t frozen_steps = 0;    // leading rows that never move
  double ramp_rate = 0.0;      // steepness of the strength ramp from frozen_steps to overlap_steps
};

// Per-row velocity strength [horizon]: 0 below frozen_steps; over the next overlap - frozen rows the
// middle of 1 - exp(-rate t), t = linspace(0, 1, overlap - frozen + 2), divided by its last value
// clamped at 1e-8 (both ends dropped); 1 from overlap_steps on. Computed in float64.
std::vector<double> velocity_strength(const RealTimeChunking& rtc, int horizon);

// Where a call's Euler loop starts: the noise alone, or, with a previous chunk and options (both or
// neither), the inpainted noise and the row strengths. Error naming the option, or `what` (how the
// previous chunk is named: its file, or the field it came in), for: a version without real-time
// chunking, negative counts, overlap_steps above action_horizon or the model's horizon,
// action_horizon above the previous chunk's rows, frozen_steps above overlap_steps, a non-finite
// ramp rate, a chunk that is not [H_prev, A] or [1, H_prev, A] floats, or non-finite chunk values.
EulerStart euler_start(Matrix<double> noise, const std::optional<TensorView>& previous,
                       const std::optional<RealTimeChunking>& rtc, const ModelConfig& config, const std::string& what);

}  // namespace ditmk::model
