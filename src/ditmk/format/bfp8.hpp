#pragma once
// bfp8_b, Tenstorrent's "block float 8, b variant": 16 consecutive values (one face row) share the
// largest of their fp32 exponents; each value keeps a sign bit and a 7-bit magnitude aligned to that
// shared exponent, so a stored magnitude q in a group with exponent byte E means q * 2^(E - 133)
// (127 is the fp32 bias, 6 the position of the explicit leading bit). docs/tile-formats.md gives
// the rules and where they come from.
#include <cstdint>

namespace ditmk::format {

constexpr int kBfp8GroupSize = 16;

// Encodes 16 floats the way tt-metal's host packer does: shared exponent = max fp32 exponent field;
// each significand (hidden bit made explicit) is shifted right by its exponent's distance to the
// shared one, then rounded to 7 bits to nearest, ties to even; a rounding carry out of 7 bits
// saturates to 127 (the shared exponent is never raised). Zeros and fp32 subnormals encode as 0, and
// a magnitude that rounds to 0 loses its sign. Writes 16 sign/magnitude bytes, returns the shared
// exponent. Throws ditmk::Error for inf or NaN, which the format cannot hold.
uint8_t bfp8_encode_group(const float* values, uint8_t* mantissas);

// Exact value of one stored byte, flushed to a signed zero when it would fall below the smallest
// normal float (only possible for shared exponents under 7).
float bfp8_decode_value(uint8_t shared_exponent, uint8_t mantissa);
void bfp8_decode_group(uint8_t shared_exponent, const uint8_t* mantissas, float* values);

// decode(encode(values)) for one group, in place of the caller's copy.
void bfp8_round_group(const float* values, float* rounded);

// Worst-case |decode(encode(x)) - x| over a group whose largest magnitude is group_max_abs: one
// step 2^(E - 133) of the group's grid (half a step from rounding, up to a whole step when the top
// value saturates at 127), which is at most group_max_abs / 64; never below 2 * FLT_MIN, the most a
// value flushed to zero at the bottom of the float range can lose.
float bfp8_error_bound(float group_max_abs);

}  // namespace ditmk::format
