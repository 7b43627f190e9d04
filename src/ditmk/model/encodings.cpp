#include "ditmk/model/encodings.hpp"

#include <cmath>

namespace ditmk::model {

// The official runtime builds both encodings in float32: frequencies, exponentials and the products
// t * f are rounded to float32, and those float32 arguments are what the model was trained on. At
// t = 750 the arguments reach ~750 rad, where that rounding moves sin/cos by up to ~5e-5, so the
// reference reproduces the float32 arguments exactly and only then evaluates sin/cos in float64.
namespace {
float exp_f32(float x) { return float(std::exp(double(x))); }
}  // namespace

std::vector<double> timestep_sinusoid(int t, int channels) {
  const int half = channels / 2;
  const float neg_log_period = float(-std::log(10000.0));
  std::vector<double> emb(channels);
  for (int j = 0; j < half; ++j) {
    const float exponent = (neg_log_period * float(j)) / float(half - 1);
    const float arg = float(t) * exp_f32(exponent);
    emb[j] = std::cos(double(arg));
    emb[half + j] = std::sin(double(arg));
  }
  return emb;
}

std::vector<double> tau_sinusoid(int t, int width) {
  const int half = width / 2;
  const float log_step = float(std::log(10000.0)) / float(half);
  std::vector<double> tau(width);
  for (int j = 0; j < half; ++j) {
    const float arg = float(t) * exp_f32(-float(j) * log_step);
    tau[j] = std::sin(double(arg));
    tau[half + j] = std::cos(double(arg));
  }
  return tau;
}

}  // namespace ditmk::model
