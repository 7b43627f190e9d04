#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "ditmk/core/error.hpp"
#include "ditmk/core/rng.hpp"
#include "ditmk/format/bfp8.hpp"

namespace ditmk::format {
namespace {

using Group = std::array<float, kBfp8GroupSize>;
using Bytes = std::array<uint8_t, kBfp8GroupSize>;

struct Encoded {
  uint8_t exponent;
  Bytes mantissas;
};

Encoded encode(const Group& values) {
  Encoded encoded{};
  encoded.exponent = bfp8_encode_group(values.data(), encoded.mantissas.data());
  return encoded;
}

Group round_trip(const Group& values) {
  Group rounded{};
  bfp8_round_group(values.data(), rounded.data());
  return rounded;
}

int biased_exponent(float x) { return int((std::bit_cast<uint32_t>(x) >> 23) & 0xff); }

// The packer's rule restated in double arithmetic: the magnitude is measured in units of 2^-17 of
// the group's step and truncated there (the alignment shift), then rounded to a whole step, ties to
// even, and capped at 127.
uint8_t reference_byte(float x, int shared_exponent) {
  if (biased_exponent(x) == 0) return 0;
  const double step = std::ldexp(1.0, shared_exponent - 133);
  const double aligned = std::floor(std::ldexp(std::fabs(double(x)) / step, 17));
  const double magnitude = std::min(std::nearbyint(std::ldexp(aligned, -17)), 127.0);
  if (magnitude == 0) return 0;
  return uint8_t((std::signbit(x) ? 0x80 : 0) | int(magnitude));
}

TEST(Bfp8, HandComputedEncodingsPinTheRoundingRule) {
  // 1.0 sets the shared exponent to 127: one step is 2^-6 and 1.0 is magnitude 64.
  const Group values{
      1.0f,
      0.75f,
      -0.5f,
      1.0f + 1.0f / 128,                    // 64.5 steps: tie, 64 is even
      1.0f + 3.0f / 128,                    // 65.5 steps: tie, up to 66
      std::bit_cast<float>(0x3F810001u),    // just above 64.5 steps: up to 65
      std::bit_cast<float>(0x3F020001u),    // 32.5 steps + 2^-24: the alignment shift drops the
                                            // 2^-24 first, so it is a tie and stays at 32
      -1.5f,
      2.0f - 1.0f / 128,                    // 127.5 steps: rounds to 128, saturates at 127
      std::bit_cast<float>(0x3FFFFFFFu),    // just below 2: saturates at 127
      -std::ldexp(1.0f, -10),               // rounds to magnitude 0 and loses its sign
      3 * std::ldexp(1.0f, -8),             // 0.75 steps: up to 1
      std::ldexp(1.0f, -7),                 // 0.5 steps: tie, down to 0
      -3 * std::ldexp(1.0f, -7),            // 1.5 steps: tie, up to 2
      0.0f,
      -0.0f};
  const Bytes expected{0x40, 0x30, 0xA0, 0x40, 0x42, 0x41, 0x20, 0xE0,
                       0x7F, 0x7F, 0x00, 0x01, 0x00, 0x82, 0x00, 0x00};
  const Encoded encoded = encode(values);
  EXPECT_EQ(encoded.exponent, 127);
  EXPECT_EQ(encoded.mantissas, expected);

  const Group decoded = round_trip(values);
  EXPECT_EQ(decoded[1], 0.75f);
  EXPECT_EQ(decoded[3], 1.0f);
  EXPECT_EQ(decoded[4], 1.0f + 2.0f / 64);
  EXPECT_EQ(decoded[6], 0.5f);
  EXPECT_EQ(decoded[8], 127.0f / 64);
  EXPECT_EQ(decoded[13], -2.0f / 64);
  EXPECT_FALSE(std::signbit(decoded[10]));
}

TEST(Bfp8, SharedExponentIsTheLargestInTheGroup) {
  Group values{};
  values[9] = 3.0f;  // exponent byte 128, step 2^-5
  values[2] = -1.0f;
  const Encoded encoded = encode(values);
  EXPECT_EQ(encoded.exponent, 128);
  EXPECT_EQ(encoded.mantissas[9], 0x60);
  EXPECT_EQ(encoded.mantissas[2], 0xA0);
  EXPECT_EQ(encoded.mantissas[0], 0x00);
}

TEST(Bfp8, MixedMagnitudesFlushSmallValues) {
  // 1000 sets exponent byte 136: one step is 8.
  const Group values{1000.0f, 1.0f, -0.001f, 7.9f, 8.0f, -12.0f, 4.0f, -1000.0f,
                     0.5f,    -3.0f, 101.0f, 2e-20f, 0.0f, 0.0f, 0.0f, 0.0f};
  const Encoded encoded = encode(values);
  EXPECT_EQ(encoded.exponent, 136);
  const Bytes expected{0x7D, 0x00, 0x00, 0x01, 0x01, 0x82, 0x00, 0xFD,
                       0x00, 0x00, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(encoded.mantissas, expected);
  const Group decoded = round_trip(values);
  EXPECT_EQ(decoded[0], 1000.0f);
  EXPECT_EQ(decoded[1], 0.0f);
  EXPECT_EQ(decoded[5], -16.0f);
  EXPECT_EQ(decoded[10], 104.0f);
}

TEST(Bfp8, EveryStoredValueRoundTripsExactly) {
  // For every normal-range shared exponent and every byte, the decoded value re-encodes to the same
  // byte when the group's largest value pins the same exponent.
  for (int exponent = 7; exponent <= 254; ++exponent) {
    for (int byte = 0; byte < 256; ++byte) {
      if (byte == 0x80) continue;  // negative zero: re-encodes as 0
      const float value = bfp8_decode_value(uint8_t(exponent), uint8_t(byte));
      const float expected = (byte & 0x80 ? -1.0f : 1.0f) * std::ldexp(float(byte & 0x7f), exponent - 133);
      ASSERT_EQ(value, expected) << exponent << " " << byte;
      Group values{};
      values[0] = bfp8_decode_value(uint8_t(exponent), 0x40);
      values[5] = value;
      const Encoded encoded = encode(values);
      ASSERT_EQ(encoded.exponent, exponent);
      ASSERT_EQ(encoded.mantissas[5], byte) << exponent;
    }
  }
}

TEST(Bfp8, GroupDecodeAgreesWithValueDecode) {
  // Every exponent byte the encoder can produce (255 only comes with inf/NaN, which it rejects),
  // each group holding all 256 bytes over 16 calls, compared bit for bit.
  for (int exponent = 0; exponent <= 254; ++exponent) {
    for (int first = 0; first < 256; first += kBfp8GroupSize) {
      Bytes mantissas{};
      for (int i = 0; i < kBfp8GroupSize; ++i) mantissas[i] = uint8_t(first + i);
      Group values{};
      bfp8_decode_group(uint8_t(exponent), mantissas.data(), values.data());
      for (int i = 0; i < kBfp8GroupSize; ++i) {
        const float expected = bfp8_decode_value(uint8_t(exponent), mantissas[i]);
        ASSERT_EQ(std::bit_cast<uint32_t>(values[i]), std::bit_cast<uint32_t>(expected))
            << "exponent " << exponent << " byte " << first + i;
      }
    }
  }
}

TEST(Bfp8, ZerosAndSubnormals) {
  const Group zeros{0.0f, -0.0f};
  const Encoded zero_encoding = encode(zeros);
  EXPECT_EQ(zero_encoding.exponent, 0);
  EXPECT_EQ(zero_encoding.mantissas, Bytes{});

  // Subnormal inputs encode as 0; they take part in the shared exponent as the exponent byte 0.
  const float subnormal = std::numeric_limits<float>::denorm_min() * 12345;
  Group tiny{subnormal, -subnormal, FLT_MIN / 2};
  const Encoded tiny_encoding = encode(tiny);
  EXPECT_EQ(tiny_encoding.exponent, 0);
  EXPECT_EQ(tiny_encoding.mantissas, Bytes{});
  for (float v : round_trip(tiny)) EXPECT_EQ(v, 0.0f);

  tiny[3] = 1.5f * FLT_MIN;  // the smallest normal exponent: step 2^-132
  const Encoded mixed = encode(tiny);
  EXPECT_EQ(mixed.exponent, 1);
  EXPECT_EQ(mixed.mantissas[0], 0x00);
  EXPECT_EQ(mixed.mantissas[3], 0x60);
  EXPECT_EQ(round_trip(tiny)[3], 1.5f * FLT_MIN);
}

TEST(Bfp8, DecodeFlushesResultsBelowTheNormalRange) {
  EXPECT_EQ(bfp8_decode_value(7, 0x01), FLT_MIN);  // 1 * 2^(7-133) = 2^-126
  EXPECT_EQ(bfp8_decode_value(6, 0x01), 0.0f);
  EXPECT_EQ(bfp8_decode_value(6, 0x03), 1.5f * FLT_MIN);
  EXPECT_EQ(bfp8_decode_value(5, 0x03), 0.0f);  // 0.75 * FLT_MIN
  EXPECT_EQ(bfp8_decode_value(6, 0x02), FLT_MIN);
  EXPECT_EQ(bfp8_decode_value(0, 0x7f), 0.0f);
  EXPECT_TRUE(std::signbit(bfp8_decode_value(3, 0x81)));
  EXPECT_TRUE(std::signbit(bfp8_decode_value(127, 0x80)));
  EXPECT_EQ(bfp8_decode_value(127, 0x80), 0.0f);
  EXPECT_EQ(bfp8_decode_value(254, 0xFF), -127 * std::ldexp(1.0f, 121));
}

TEST(Bfp8, RandomGroupsMatchTheRuleAndStayWithinTheBound) {
  CounterRng rng(2024, 1);
  uint64_t draw = 0;
  double worst_ratio = 0;
  for (int group = 0; group < 20000; ++group) {
    // Half the groups share one scale; the others mix magnitudes over ~2^-30..2^30.
    const bool mixed = group % 2 == 1;
    const int group_scale = int(rng.bits(draw++) % 61) - 30;
    Group values{};
    float max_abs = 0;
    for (float& v : values) {
      const int scale = mixed ? int(rng.bits(draw++) % 61) - 30 : group_scale;
      v = std::ldexp(float(rng.normal(draw++)), scale);
      max_abs = std::max(max_abs, std::fabs(v));
    }
    const Encoded encoded = encode(values);
    ASSERT_EQ(encoded.exponent, biased_exponent(max_abs));
    const Group decoded = round_trip(values);
    const float bound = bfp8_error_bound(max_abs);
    ASSERT_LE(bound, max_abs / 64);
    for (int i = 0; i < kBfp8GroupSize; ++i) {
      ASSERT_EQ(encoded.mantissas[i], reference_byte(values[i], encoded.exponent)) << values[i];
      const double error = std::fabs(double(decoded[i]) - values[i]);
      ASSERT_LE(error, bound) << values[i] << " in a group with max " << max_abs;
      worst_ratio = std::max(worst_ratio, error / bound);
    }
  }
  // The bound is reached in practice (a saturated top value loses almost a whole step).
  EXPECT_GT(worst_ratio, 0.75);
}

TEST(Bfp8, ErrorBoundValues) {
  EXPECT_EQ(bfp8_error_bound(1.0f), 1.0f / 64);
  EXPECT_EQ(bfp8_error_bound(1.99f), 1.0f / 64);
  EXPECT_EQ(bfp8_error_bound(-1000.0f), 8.0f);
  EXPECT_EQ(bfp8_error_bound(0.0f), 2 * FLT_MIN);
}

void expect_rejected(float bad, int index, const char* what) {
  Group values{};
  values[0] = 1.0f;
  values[index] = bad;
  Bytes mantissas{};
  try {
    bfp8_encode_group(values.data(), mantissas.data());
    FAIL() << bad << " was encoded";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("value " + std::to_string(index)), std::string::npos) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
  }
}

TEST(Bfp8, InfinityAndNaNAreRejected) {
  expect_rejected(std::numeric_limits<float>::infinity(), 3, "infinite");
  expect_rejected(-std::numeric_limits<float>::infinity(), 15, "infinite");
  expect_rejected(std::numeric_limits<float>::quiet_NaN(), 7, "NaN");
  expect_rejected(std::bit_cast<float>(0xFF800001u), 1, "NaN");  // signalling, negative
}

}  // namespace
}  // namespace ditmk::format
