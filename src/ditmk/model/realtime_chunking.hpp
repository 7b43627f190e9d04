#pragma once
// N1.7's real-time chunking, as its released head computes it (gr00t_n1d7 get_action_with_features).
// A robot executes one action chunk while the next is computed; to keep the two continuous, the
// caller hands in the previous chunk. The initial actions' first `overlap_steps` rows are then that
// chunk's rows [action_horizon - overlap_steps, action_horizon), and every Euler step moves row r by
// dt * v * strength[r]: 0 for the first `frozen_steps` rows (what the robot executes during the
// inference latency), an exponential ramp up to `overlap_steps`, 1 after. N1.5 and N1.6 have none.
//
// The release writes this as three PyTorch slice assignments and a float32 ramp; ditmk evaluates
// exactly those (Python's slice rules, PyTorch's broadcast of a single row, float32 arithmetic), so
// it accepts every option set the release runs and refuses only where the release raises or would
// return non-finite actions (docs/model.md lists the edges).
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

// The rows a Python slice [start:stop] (step 1) selects from `size` rows: negative bounds count from
// the end, and both are clamped into [0, size].
struct RowSlice {
  int64_t first = 0;
  int64_t count = 0;
};
RowSlice python_slice(std::optional<int64_t> start, std::optional<int64_t> stop, int64_t size);

// The release's ramp in float32: 1 - exp(-rate t) over torch.linspace(0, 1, points) (float32, the
// step (1 - 0) / (points - 1), the first half counted up from 0 and the second down from 1), each
// divided by the last value clamped at 1e-8. points = overlap - frozen + 2; the release keeps the
// middle points. Empty for points <= 0.
std::vector<float> release_ramp(int64_t points, double rate);

// Per-row velocity strength [horizon], as the release assigns it: 1; then 0 over rows [:frozen_steps];
// then the middle of release_ramp over rows [frozen_steps:overlap_steps] (one value broadcast, as
// PyTorch does, when the middle has one point). Error naming the option where the release raises:
// frozen_steps above overlap_steps + 1 (no ramp to index), or a ramp that does not fit its rows.
std::vector<double> velocity_strength(const RealTimeChunking& rtc, int horizon);

// Where a call's Euler loop starts: the noise alone, or, with a previous chunk and options (both or
// neither), the inpainted noise and the row strengths. Error naming the option, or `what` (how the
// previous chunk is named: its file, or the field it came in), for: a version without real-time
// chunking, a chunk that is not [H_prev, A] or [1, H_prev, A] floats, options the release cannot
// apply (its rows [action_horizon - overlap_steps, action_horizon) of the chunk neither fill the
// first overlap_steps rows nor are one row to broadcast; velocity_strength's refusals), non-finite
// values in the chunk rows it reads, or a ramp rate whose ramp is non-finite where it is used.
// A frozen row that is not inpainted (frozen_steps = overlap_steps + 1) is the release's quirk: it
// keeps its noise; `warnings` says so.
EulerStart euler_start(Matrix<double> noise, const std::optional<TensorView>& previous,
                       const std::optional<RealTimeChunking>& rtc, const ModelConfig& config, const std::string& what);

}  // namespace ditmk::model
