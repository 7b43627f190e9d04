#include "ditmk/model/realtime_chunking.hpp"

#include <algorithm>
#include <cmath>

#include "ditmk/core/error.hpp"

namespace ditmk::model {

namespace {

// PyTorch copies a slice's rows into another slice of the same count, or broadcasts a single row.
bool fits(int64_t source_rows, int64_t target_rows) { return source_rows == target_rows || source_rows == 1; }

// The release's `actions[:, :overlap] = previous[:, horizon - overlap : horizon]`: the chunk rows it
// reads, refused where PyTorch would raise, naming the option that takes it there.
RowSlice inpainted_rows(const RealTimeChunking& rtc, int horizon, int64_t previous_rows, const std::string& what) {
  const RowSlice target = python_slice(std::nullopt, rtc.overlap_steps, horizon);
  const RowSlice source = python_slice(rtc.action_horizon - rtc.overlap_steps, rtc.action_horizon, previous_rows);
  if (fits(source.count, target.count)) return source;
  const std::string read = fmt::format("the release's slice [{}:{}] of the chunk's {} rows gives {} rows for {}",
                                       rtc.action_horizon - rtc.overlap_steps, rtc.action_horizon, previous_rows,
                                       source.count, target.count);
  if (rtc.overlap_steps < 0) fail("rtc_overlap_steps {}: negative ({})", rtc.overlap_steps, read);
  if (rtc.overlap_steps > horizon)
    fail("rtc_overlap_steps {}: more than the model's action horizon {} ({})", rtc.overlap_steps, horizon, read);
  if (rtc.overlap_steps > rtc.action_horizon)
    fail("rtc_overlap_steps {}: more than action_horizon {} ({})", rtc.overlap_steps, rtc.action_horizon, read);
  fail("action_horizon {}: more than the {} rows of the previous chunk ({}; {})", rtc.action_horizon, previous_rows, what,
       read);
}

}  // namespace

RowSlice python_slice(std::optional<int64_t> start, std::optional<int64_t> stop, int64_t size) {
  const auto bound = [size](std::optional<int64_t> index, int64_t absent) {
    if (!index) return absent;
    const int64_t i = *index < 0 ? *index + size : *index;
    return std::clamp<int64_t>(i, 0, size);
  };
  const int64_t first = bound(start, 0), end = bound(stop, size);
  return {first, std::max<int64_t>(0, end - first)};
}

std::vector<float> release_ramp(int64_t points, double rate) {
  if (points <= 0) return {};
  // torch.linspace(0.0, 1.0, points) in float32: the step in float32, the first half counted up from
  // 0 and the rest down from 1 (ATen's kernel; a single point is the start).
  std::vector<float> t(std::size_t(points), 0.0f);
  if (points > 1) {
    const float step = 1.0f / float(points - 1);
    for (int64_t i = 0; i < points; ++i)
      t[std::size_t(i)] = i < points / 2 ? step * float(i) : 1.0f - step * float(points - 1 - i);
  }
  // -rate * t: the Python float rate meets a float32 tensor and is rounded to float32 first.
  const float negated_rate = float(-rate);
  std::vector<float> ramp(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) ramp[i] = 1.0f - std::exp(negated_rate * t[i]);
  const float last = std::max(ramp.back(), 1e-8f);  // clamp_min(1e-8); NaN stays NaN
  for (float& r : ramp) r /= last;
  return ramp;
}

std::vector<double> velocity_strength(const RealTimeChunking& rtc, int horizon) {
  std::vector<double> strength(std::size_t(horizon), 1.0);
  const RowSlice frozen = python_slice(std::nullopt, rtc.frozen_steps, horizon);
  std::fill_n(strength.begin() + frozen.first, frozen.count, 0.0);
  const int64_t points = rtc.overlap_steps - rtc.frozen_steps + 2;
  if (points <= 0)
    fail("rtc_frozen_steps {}: more than rtc_overlap_steps {} + 1 (the release's ramp would have {} points, and it "
         "indexes the last)",
         rtc.frozen_steps, rtc.overlap_steps, points);
  const std::vector<float> ramp = release_ramp(points, rtc.ramp_rate);
  const int64_t middle = std::max<int64_t>(0, points - 2);
  const RowSlice ramped = python_slice(rtc.frozen_steps, rtc.overlap_steps, horizon);
  if (!fits(middle, ramped.count)) {
    const std::string misfit = fmt::format("the release's ramp has {} values for the {} rows [{}:{}] of the {}-row chunk",
                                           middle, ramped.count, rtc.frozen_steps, rtc.overlap_steps, horizon);
    if (rtc.overlap_steps > horizon)
      fail("rtc_overlap_steps {}: more than the model's action horizon {} ({})", rtc.overlap_steps, horizon, misfit);
    fail("rtc_frozen_steps {}: {}", rtc.frozen_steps, misfit);
  }
  for (int64_t r = 0; r < ramped.count; ++r)
    strength[std::size_t(ramped.first + r)] = double(ramp[std::size_t(middle == 1 ? 1 : 1 + r)]);
  return strength;
}

EulerStart euler_start(Matrix<double> noise, const std::optional<TensorView>& previous,
                       const std::optional<RealTimeChunking>& rtc, const ModelConfig& c, const std::string& what) {
  if (!previous && !rtc) return {std::move(noise), {}, {}};
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
  const RowSlice read = inpainted_rows(*rtc, c.horizon, chunk.shape[0], what);
  for (int64_t r = read.first; r < read.first + read.count; ++r)
    for (int a = 0; a < c.action_dim; ++a)
      if (!std::isfinite(chunk.at(std::size_t(r * c.action_dim + a))))
        fail("{}: non-finite value at row {}, column {} (a row the options read)", what, r, a);
  std::vector<double> strength = velocity_strength(*rtc, c.horizon);
  for (double s : strength)
    if (!std::isfinite(s))
      fail("rtc_ramp_rate {}: the release's float32 ramp is not finite over rows [{}:{}]", rtc->ramp_rate, rtc->frozen_steps,
           rtc->overlap_steps);
  const RowSlice inpainted = python_slice(std::nullopt, rtc->overlap_steps, c.horizon);
  for (int64_t r = 0; r < inpainted.count; ++r)
    for (int a = 0; a < c.action_dim; ++a)
      noise(int(r), a) = chunk.at(std::size_t((read.first + (read.count == 1 ? 0 : r)) * c.action_dim + a));
  std::vector<std::string> warnings;
  const int64_t frozen_rows = python_slice(std::nullopt, rtc->frozen_steps, c.horizon).count;
  if (frozen_rows > inpainted.count)
    warnings.push_back(fmt::format(
        "rtc_frozen_steps {} with rtc_overlap_steps {}: rows [{}:{}] are frozen but not inpainted, so they keep their noise "
        "(as the released head computes it)",
        rtc->frozen_steps, rtc->overlap_steps, inpainted.count, frozen_rows));
  return {std::move(noise), std::move(strength), std::move(warnings)};
}

}  // namespace ditmk::model
