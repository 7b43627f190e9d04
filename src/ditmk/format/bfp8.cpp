#include "ditmk/format/bfp8.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>

#include "ditmk/core/error.hpp"

namespace ditmk::format {
namespace {

constexpr uint32_t kExponentField = 0xffu;
constexpr uint32_t kFractionMask = 0x7fffffu;
constexpr uint32_t kHiddenBit = 1u << 23;
// A 24-bit significand keeps its top 7 bits; the 17 below decide the rounding.
constexpr int kDroppedBits = 24 - 7;
constexpr uint32_t kHalfStep = 1u << (kDroppedBits - 1);
constexpr uint32_t kMaxMagnitude = 0x7fu;
constexpr uint8_t kSignBit = 0x80u;
// Magnitude q in a group with exponent byte E is q * 2^(E - kGridBias): the fp32 bias plus the 6
// fraction bits that follow the explicit leading bit.
constexpr int kGridBias = 127 + 6;

uint32_t exponent_field(uint32_t bits) { return (bits >> 23) & kExponentField; }

// Written without data-dependent branches so the 16 lanes of a group compile to straight-line code.
uint8_t encode_value(uint32_t bits, uint32_t shared_exponent) {
  const uint32_t exponent = exponent_field(bits);
  const uint32_t distance = std::min(shared_exponent - exponent, 31u);
  const uint32_t significand = (bits & kFractionMask) | kHiddenBit;
  // Bits shifted out here are dropped before rounding, as the reference packer does.
  const uint32_t aligned = significand >> distance;
  // Round to nearest, ties to even: a carry out of the dropped bits happens when they exceed half a
  // step, or equal it while the kept part is odd.
  const uint32_t odd = (aligned >> kDroppedBits) & 1u;
  uint32_t magnitude = (aligned + kHalfStep - 1 + odd) >> kDroppedBits;
  magnitude = std::min(magnitude, kMaxMagnitude);
  magnitude = exponent == 0 ? 0 : magnitude;  // zero or subnormal
  const uint32_t sign = magnitude == 0 ? 0 : (bits >> 31) << 7;
  return uint8_t(sign | magnitude);
}

[[noreturn]] void reject_non_finite(const float* values) {
  int i = 0;
  while (std::isfinite(values[i])) ++i;
  fail("bfp8_b cannot encode value {} of a 16-value group: it is {}", i,
       std::isnan(values[i]) ? "NaN" : "infinite");
}

}  // namespace

uint8_t bfp8_encode_group(const float* values, uint8_t* mantissas) {
  uint32_t bits[kBfp8GroupSize];
  uint32_t shared_exponent = 0;
  for (int i = 0; i < kBfp8GroupSize; ++i) {
    bits[i] = std::bit_cast<uint32_t>(values[i]);
    shared_exponent = std::max(shared_exponent, exponent_field(bits[i]));
  }
  // Only inf and NaN carry the all-ones exponent, and it would be the group's maximum.
  if (shared_exponent == kExponentField) reject_non_finite(values);
  for (int i = 0; i < kBfp8GroupSize; ++i) mantissas[i] = encode_value(bits[i], shared_exponent);
  return uint8_t(shared_exponent);
}

float bfp8_decode_value(uint8_t shared_exponent, uint8_t mantissa) {
  const uint32_t sign = uint32_t(mantissa & kSignBit) << 24;
  const uint32_t magnitude = mantissa & kMaxMagnitude;
  if (magnitude == 0) return std::bit_cast<float>(sign);
  // Normalise: move the leading one to bit 6, lowering the exponent by the same count.
  const int shift = std::countl_zero(magnitude) - 25;
  const int exponent = int(shared_exponent) - shift;
  if (exponent <= 0) return std::bit_cast<float>(sign);
  // The six bits below the leading one become the top of the fp32 fraction.
  const uint32_t fraction = ((magnitude << shift) & 0x3fu) << (23 - 6);
  return std::bit_cast<float>(sign | (uint32_t(exponent) << 23) | fraction);
}

void bfp8_decode_group(uint8_t shared_exponent, const uint8_t* mantissas, float* values) {
  // From exponent byte 7 up, the step 2^(E - kGridBias) is a normal float and every nonzero
  // magnitude times it stays normal, so one exact multiply per value replaces the normalisation.
  constexpr int kSmallestExactStep = kGridBias - 126;
  if (shared_exponent < kSmallestExactStep) {
    for (int i = 0; i < kBfp8GroupSize; ++i) values[i] = bfp8_decode_value(shared_exponent, mantissas[i]);
    return;
  }
  const float step = std::bit_cast<float>(uint32_t(shared_exponent - kGridBias + 127) << 23);
  for (int i = 0; i < kBfp8GroupSize; ++i) {
    const float magnitude = float(mantissas[i] & kMaxMagnitude) * step;
    const uint32_t sign = uint32_t(mantissas[i] & kSignBit) << 24;
    values[i] = std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | sign);
  }
}

void bfp8_round_group(const float* values, float* rounded) {
  uint8_t mantissas[kBfp8GroupSize];
  const uint8_t shared_exponent = bfp8_encode_group(values, mantissas);
  bfp8_decode_group(shared_exponent, mantissas, rounded);
}

float bfp8_error_bound(float group_max_abs) {
  const int exponent = int(exponent_field(std::bit_cast<uint32_t>(group_max_abs)));
  return std::max(std::ldexp(1.0f, exponent - kGridBias), 2 * FLT_MIN);
}

}  // namespace ditmk::format
