#pragma once
// tt-metal's api/numeric/bfloat16.h: bfloat16 bit patterns and their conversions to and from fp32, as
// data-movement kernels use them to build scalers and compare values in L1. Plain integer and float
// code, the same on the host as on the chip (the bit copies are the compiler's own memcpy, so the
// header needs no hosted <cstring>).
#include <stdint.h>

#include "internal/risc_attribs.h"

inline constexpr uint16_t NEG_INF_BFLOAT16 = 0xFF80;
inline constexpr uint16_t POS_INF_BFLOAT16 = 0x7F80;
inline constexpr uint16_t NAN_BFLOAT16 = 0x7FFF;
inline constexpr uint16_t BFLOAT16_SIGN_MASK = 0x8000;
inline constexpr uint16_t BFLOAT16_EXPONENT_MASK = 0x7F80;
inline constexpr uint16_t BFLOAT16_MANTISSA_MASK = 0x007F;
inline constexpr uint16_t BFLOAT16_MAGNITUDE_MASK = 0x7FFF;

// A bfloat16 is the high half of an fp32.
FORCE_INLINE float bf16_to_fp32(std::uint16_t bf16) {
  const std::uint32_t bits = static_cast<std::uint32_t>(bf16) << 16;
  float value;
  __builtin_memcpy(&value, &bits, sizeof(value));
  return value;
}

// Rounded to nearest, ties to even (a NaN's payload may round into the exponent, as on the chip).
FORCE_INLINE std::uint16_t fp32_to_bf16(float x) {
  std::uint32_t bits;
  __builtin_memcpy(&bits, &x, sizeof(bits));
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>(bits >> 16);
}

FORCE_INLINE std::uint16_t fp32_to_bf16_truncate(float x) {
  std::uint32_t bits;
  __builtin_memcpy(&bits, &x, sizeof(bits));
  return static_cast<std::uint16_t>(bits >> 16);
}

// An fp32's two 16-bit halves.
struct FloatBits {
  std::uint16_t high16;
  std::uint16_t low16;
  explicit FloatBits(float value) {
    std::uint32_t bits;
    __builtin_memcpy(&bits, &value, sizeof(bits));
    high16 = static_cast<std::uint16_t>(bits >> 16);
    low16 = static_cast<std::uint16_t>(bits & 0xFFFFu);
  }
};

// Whether bfloat16 a is greater than b, comparing the bit patterns: a positive value is greater than
// a negative one; among positives more bits is greater, among negatives fewer.
inline bool bfloat16_greater(uint16_t bf16_a, uint16_t bf16_b) {
  if ((bf16_a ^ bf16_b) & BFLOAT16_SIGN_MASK) return (bf16_a & BFLOAT16_SIGN_MASK) == 0;
  if (bf16_a & BFLOAT16_SIGN_MASK) return bf16_a < bf16_b;
  return bf16_a > bf16_b;
}
