#pragma once
// Block-scaled int8: 32 consecutive values along K share one fp32 scale (the scheme of llama.cpp's
// Q8_0 and OCP's MXINT8, with a float scale instead of a power of two). Weights are quantized this
// way once at load, activations on the fly by every int8 GEMM call, with the same rule:
//
//   scale = absmax / 127,  q = round_half_even(v * (127 / absmax)) in [-127, 127]
//
// in fp32 arithmetic (one division for each of 127/absmax and absmax/127, one multiply and one
// rounding per value), so a scalar loop and a vector one give the same bytes. An all-zero block has
// scale 0 and q = 0. |v - q * scale| <= scale / 2 (plus fp32 rounding): at most 1/254 of the
// block's largest magnitude, ~0.5% RMS relative error on Gaussian-like blocks (docs/kernels.md).
// A float scale spends all 255 levels on every block; a power of two would waste up to half of them.
#include <cstdint>

namespace ditmk::cpu {

inline constexpr int64_t kInt8Block = 32;

// Quantizes values[0, count) (count <= kInt8Block) into q[0, kInt8Block): entries past count are 0.
// Returns the scale. NaN inputs give unspecified (but defined) q; callers reject them where it matters.
float quantize_int8_block(const float* values, int64_t count, int8_t* q);

// x as the int8 kernels read it: one block of a row, values offset by +128 to unsigned (vpdpbusd
// multiplies unsigned by signed bytes; the weights' per-column correction removes the offset
// exactly), and the block's scale.
struct Int8XBlock {
  uint8_t values[kInt8Block];
  float scale;
};
static_assert(sizeof(Int8XBlock) == 36);

}  // namespace ditmk::cpu
