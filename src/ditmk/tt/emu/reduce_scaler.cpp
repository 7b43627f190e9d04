#include "ditmk/tt/emu/reduce_scaler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ditmk/format/tile.hpp"

namespace ditmk::tt::emu {

namespace {

using format::kTile;
using format::kTileElems;
constexpr int kFace = 16;

// the row-0 scaler element a col (and scalar first-pass) reduce pairs with input (r, c)
float col_weight(const float* scaler, int r, int c) {
  return scaler[(kFace * (r / kFace)) * kTile + kFace * (c / kFace) + r % kFace];
}

}  // namespace

float max_pool_scale(float s) {
  if (s == 0.0f || std::fpclassify(s) == FP_SUBNORMAL) return 0.0f;
  if (!std::isfinite(s)) return std::fabs(s);
  int exponent = 0;
  std::frexp(s, &exponent);  // |s| = m * 2^exponent with m in [0.5, 1)
  return std::ldexp(1.0f, exponent - 1);
}

void reduce_with_scaler(ReduceFunc func, ReduceDim dim, const float* in, const float* scaler, float* out) {
  const bool sum = func == ReduceFunc::sum;
  const float start = sum ? 0.0f : -std::numeric_limits<float>::infinity();
  auto combine = [sum](float acc, float v, float w) {
    return sum ? acc + v * w : std::max(acc, v * max_pool_scale(w));
  };
  std::fill(out, out + kTileElems, 0.0f);
  if (dim == ReduceDim::row) {
    for (int r = 0; r < kTile; ++r) {
      const float* weights = scaler + (sum ? 0 : kFace * (r / kFace) * kTile);
      float acc = start;
      for (int c = 0; c < kTile; ++c) acc = combine(acc, in[r * kTile + c], weights[c]);
      out[r * kTile] = acc;
    }
  } else if (dim == ReduceDim::col) {
    for (int c = 0; c < kTile; ++c) {
      float acc = start;
      for (int r = 0; r < kTile; ++r) acc = combine(acc, in[r * kTile + c], col_weight(scaler, r, c));
      out[c] = acc;
    }
  } else {
    // first pass: every face's columns pool into one 16-wide row; second: that row against face 3's row 0
    float pooled[kFace];
    std::fill(pooled, pooled + kFace, start);
    for (int r = 0; r < kTile; ++r) {
      for (int c = 0; c < kTile; ++c) {
        pooled[c % kFace] = combine(pooled[c % kFace], in[r * kTile + c], col_weight(scaler, r, c));
      }
    }
    const float* last_face_row0 = scaler + kFace * kTile + kFace;
    float acc = start;
    for (int j = 0; j < kFace; ++j) acc = combine(acc, pooled[j], last_face_row0[j]);
    out[0] = acc;
  }
}

}  // namespace ditmk::tt::emu
