#include "ditmk/cpu/kernels/int8_block.hpp"

#include <cmath>

namespace ditmk::cpu {
namespace {

// |t| <= 127 up to one rounding for finite input, so the clamp only guards non-finite values.
int8_t round_to_int8(float t) {
  const float clamped = t > 127.0f ? 127.0f : t < -127.0f ? -127.0f : t == t ? t : 0.0f;
  return int8_t(std::nearbyint(clamped));
}

float block_absmax(const float* values, int64_t count) {
  float absmax = 0.0f;
  for (int64_t i = 0; i < count; ++i) absmax = std::fmax(absmax, std::fabs(values[i]));
  return absmax;
}

}  // namespace

float quantize_int8_weights(const float* values, int64_t count, int8_t* q) {
  float absmax = block_absmax(values, count);
  if (absmax < 0x1p-32f) absmax = 0.0f;
  const float inv = absmax > 0.0f ? 127.0f / absmax : 0.0f;
  for (int64_t i = 0; i < kInt8Block; ++i) q[i] = round_to_int8(i < count ? values[i] * inv : 0.0f);
  return absmax / 127.0f;
}

int quantize_int8_activations(const float* values, int64_t count, int8_t* q) {
  const float absmax = block_absmax(values, count);
  const int e = int8_activation_exponent(absmax);
  const float inv = absmax >= kInt8ZeroBelow ? pow2(-e) : 0.0f;
  for (int64_t i = 0; i < kInt8Block; ++i) q[i] = round_to_int8(i < count ? values[i] * inv : 0.0f);
  return e;
}

}  // namespace ditmk::cpu
