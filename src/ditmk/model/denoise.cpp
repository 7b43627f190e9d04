#include "ditmk/model/denoise.hpp"

#include <cmath>

#include "ditmk/core/error.hpp"

namespace ditmk::model {

Matrix<double> noise_matrix(const TensorView& noise, const ModelConfig& c, const std::string& what) {
  if (noise.shape != Shape{c.horizon, c.action_dim})
    fail("{}: noise shape {} (expected [{}, {}] = [horizon, action dim])", what, shape_str(noise.shape), c.horizon,
         c.action_dim);
  if (!is_float(noise.dtype))
    fail("{}: noise dtype {} (expected float32, float64, float16 or bfloat16)", what, dtype_name(noise.dtype));
  Matrix<double> x(c.horizon, c.action_dim);
  for (std::size_t i = 0; i < x.data.size(); ++i) {
    x.data[i] = noise.at(i);
    if (!std::isfinite(x.data[i])) fail("{}: non-finite noise value at index {}", what, i);
  }
  return x;
}

}  // namespace ditmk::model
