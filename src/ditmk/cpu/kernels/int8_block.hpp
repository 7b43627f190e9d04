#pragma once
// Block-scaled int8: 32 consecutive values along K share one scale (the scheme of llama.cpp's Q8_0
// and OCP's MXINT8). Weights and activations use the same blocks but different scales:
//
// Weights, once at load: a float scale, absmax / 127, and q = round_half_even(w * (127 / absmax)).
// |w - q * scale| <= scale / 2 = absmax / 254: ~0.5% RMS relative error on Gaussian-like blocks.
//
// Activations, on the fly in every int8 GEMM call: a power-of-two scale 2^e, the smallest with
// |x| * 2^-e <= 127 for the whole block, and q = round_half_even(x * 2^-e). The step is then between
// absmax / 127 and absmax / 63.5, so the error is up to twice the float scale's (~0.7% RMS on Gaussian
// blocks). What it buys: the kernels combine the two scales with vscalefps, which runs beside
// vpdpbusd, where a float product would take a multiply on the same two pipes as vpdpbusd (a
// measured 80% -> 89% bound on the int8 tile's throughput on Zen 5), and no division is needed.
//
// Both rules are fp32 arithmetic with one rounding each, so a scalar loop and a vector one give the
// same bytes. An all-zero block (and for activations any block below 2^-64, for weights below
// 2^-32) is stored as q = 0; weights' scale is then 0, activations' exponent 0.
#include <bit>
#include <cstdint>

namespace ditmk::cpu {

inline constexpr int64_t kInt8Block = 32;

// Weights: quantizes values[0, count) (count <= kInt8Block) into q[0, kInt8Block), entries past count
// 0; returns the scale. Callers reject non-finite values first.
float quantize_int8_weights(const float* values, int64_t count, int8_t* q);

// Activations: the exponent e of the block's power-of-two scale for its largest magnitude absmax.
// e = floor(log2(absmax)) - 6, plus 1 if absmax * 2^-e would pass 127; 0 for absmax < 2^-64 or NaN;
// floor(log2(absmax)) is capped at 64 (inf), so e is in [-70, 59].
inline constexpr float kInt8ZeroBelow = 0x1p-64f;

// 2^e as a float, for e in [-126, 127] (the exponents below and their negations).
inline float pow2(int e) { return std::bit_cast<float>(uint32_t(127 + e) << 23); }

inline int int8_activation_exponent(float absmax) {
  if (!(absmax >= kInt8ZeroBelow)) return 0;
  const int top = int(std::bit_cast<uint32_t>(absmax) >> 23) - 127;  // absmax is normal (or inf) here
  const int e = (top < 64 ? top : 64) - 6;
  return absmax * pow2(-e) > 127.0f ? e + 1 : e;
}

// Activations: quantizes values[0, count) into q[0, kInt8Block) (entries past count 0) with the
// exponent of int8_activation_exponent; returns it. Non-finite values give defined garbage.
int quantize_int8_activations(const float* values, int64_t count, int8_t* q);

// x as the int8 kernels read it: one block of a row, values offset by +128 to unsigned (vpdpbusd
// multiplies unsigned by signed bytes; the weights' per-column correction removes the offset
// exactly), and the block's scale exponent as a float (what vscalefps takes).
struct Int8XBlock {
  uint8_t values[kInt8Block];
  float exponent;
};
static_assert(sizeof(Int8XBlock) == 36);

}  // namespace ditmk::cpu
