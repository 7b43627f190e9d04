#include "ditmk/model/realtime_chunking.hpp"

#include <algorithm>
#include <cmath>

#include "ditmk/core/error.hpp"

namespace ditmk::model {

namespace {

void check_options(const RealTimeChunking& rtc, int horizon, int64_t previous_rows, const std::string& what) {
  for (const auto& [name, value] : {std::pair{"action_horizon", rtc.action_horizon},
                                    {"rtc_overlap_steps", rtc.overlap_steps}, {"rtc_frozen_steps", rtc.frozen_steps}})
    if (value < 0) fail("{} {}: must not be negative", name, value);
  if (rtc.overlap_steps > horizon)
    fail("rtc_overlap_steps {}: more than the model's action horizon {}", rtc.overlap_steps, horizon);
  if (rtc.overlap_steps > rtc.action_horizon)
    fail("rtc_overlap_steps {}: more than action_horizon {} (the rows of the previous chunk it reads)",
         rtc.overlap_steps, rtc.action_horizon);
  if (rtc.action_horizon > previous_rows)
    fail("action_horizon {}: more than the {} rows of the previous chunk ({})", rtc.action_horizon, previous_rows, what);
  if (rtc.frozen_steps > rtc.overlap_steps)
    fail("rtc_frozen_steps {}: more than rtc_overlap_steps {}", rtc.frozen_steps, rtc.overlap_steps);
  if (!std::isfinite(rtc.ramp_rate)) fail("rtc_ramp_rate {}: not a finite number", rtc.ramp_rate);
}

}  // namespace

std::vector<double> velocity_strength(const RealTimeChunking& rtc, int horizon) {
  std::vector<double> strength(std::size_t(horizon), 1.0);
  std::fill_n(strength.begin(), rtc.frozen_steps, 0.0);
  const int64_t ramp_rows = rtc.overlap_steps - rtc.frozen_steps;
  const double last = 1.0 - std::exp(-rtc.ramp_rate);  // the ramp at t = 1
  for (int64_t i = 1; i <= ramp_rows; ++i) {
    const double t = double(i) / double(ramp_rows + 1);
    strength[std::size_t(rtc.frozen_steps + i - 1)] = (1.0 - std::exp(-rtc.ramp_rate * t)) / std::max(last, 1e-8);
  }
  return strength;
}

EulerStart euler_start(Matrix<double> noise, const std::optional<TensorView>& previous,
                       const std::optional<RealTimeChunking>& rtc, const ModelConfig& c, const std::string& what) {
  if (!previous && !rtc) return {std::move(noise), {}};
  if (c.version != Version::n17)
    fail("{}: real-time chunking is N1.7's; the released {} head has none (it ignores a previous chunk)", what,
         version_name(c.version));
  if (!rtc) fail("{}: a previous chunk needs the options action_horizon, rtc_overlap_steps, rtc_frozen_steps and rtc_ramp_rate", what);
  if (!previous) fail("rtc options: given without a previous action chunk");
  TensorView chunk = *previous;
  if (chunk.shape.size() == 3 && chunk.shape[0] == 1) chunk.shape.erase(chunk.shape.begin());  // a batch of one
  if (chunk.shape.size() != 2 || chunk.shape[1] != c.action_dim)
    fail("{}: shape {} (expected [H_prev, {}] or [1, H_prev, {}] = the action dim)", what, shape_str(previous->shape),
         c.action_dim, c.action_dim);
  if (!is_float(chunk.dtype))
    fail("{}: dtype {} (expected float32, float64, float16 or bfloat16)", what, dtype_name(chunk.dtype));
  const int64_t rows = chunk.shape[0];
  for (std::size_t i = 0; i < std::size_t(rows * c.action_dim); ++i)
    if (!std::isfinite(chunk.at(i))) fail("{}: non-finite value at row {}, column {}", what, i / c.action_dim, i % c.action_dim);
  check_options(*rtc, c.horizon, rows, what);
  const int64_t first = rtc->action_horizon - rtc->overlap_steps;
  for (int64_t r = 0; r < rtc->overlap_steps; ++r)
    for (int a = 0; a < c.action_dim; ++a) noise(int(r), a) = chunk.at(std::size_t((first + r) * c.action_dim + a));
  return {std::move(noise), velocity_strength(*rtc, c.horizon)};
}

}  // namespace ditmk::model
