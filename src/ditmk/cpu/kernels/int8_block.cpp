#include "ditmk/cpu/kernels/int8_block.hpp"

#include <cmath>

namespace ditmk::cpu {

float quantize_int8_block(const float* values, int64_t count, int8_t* q) {
  float absmax = 0.0f;
  for (int64_t i = 0; i < count; ++i) absmax = std::fmax(absmax, std::fabs(values[i]));
  const float inv = absmax > 0.0f ? 127.0f / absmax : 0.0f;
  for (int64_t i = 0; i < kInt8Block; ++i) {
    // |v * inv| <= 127 up to one rounding, so the clamp only guards non-finite input.
    const float t = i < count ? values[i] * inv : 0.0f;
    const float clamped = t > 127.0f ? 127.0f : t < -127.0f ? -127.0f : t == t ? t : 0.0f;
    q[i] = int8_t(std::nearbyint(clamped));
  }
  return absmax / 127.0f;
}

}  // namespace ditmk::cpu
