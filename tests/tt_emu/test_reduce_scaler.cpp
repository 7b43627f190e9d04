// How the FPU's reduce weighs its input by the scaler tile (emu/reduce_scaler.hpp), against sums
// and maxima written out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ditmk/format/tile.hpp"
#include "ditmk/tt/emu/reduce_scaler.hpp"

namespace ditmk::tt::emu {
namespace {

using format::kTile;
using format::kTileElems;

// an input whose element (r, c) is distinct and exactly representable: 1 + r + c / 64
std::vector<float> ramp() {
  std::vector<float> in(kTileElems);
  for (int r = 0; r < kTile; ++r) {
    for (int c = 0; c < kTile; ++c) in[r * kTile + c] = 1.0f + float(r) + float(c) / 64.0f;
  }
  return in;
}

// a scaler tile the way tt-metal's readers fill one: zeros, then row 0 of every face set to `value`
// in its first `valid` positions counted across the faces' columns (row reduce) or rows (col reduce)
std::vector<float> face_row0_scaler(float value, int valid_cols, int valid_rows) {
  std::vector<float> s(kTileElems, 0.0f);
  for (int face_r = 0; face_r < 2; ++face_r) {
    for (int face_c = 0; face_c < 2; ++face_c) {
      for (int i = 0; i < 16; ++i) {
        const bool col_ok = face_c * 16 + i < valid_cols;
        const bool row_ok = face_r * 16 + i < valid_rows;
        if (col_ok && row_ok) s[(face_r * 16) * kTile + face_c * 16 + i] = value;
      }
    }
  }
  return s;
}

std::vector<float> reduce(ReduceFunc func, ReduceDim dim, const std::vector<float>& in, const std::vector<float>& s) {
  std::vector<float> out(kTileElems, -1.0f);
  reduce_with_scaler(func, dim, in.data(), s.data(), out.data());
  return out;
}

TEST(ReduceScaler, RowSumWeighsEachColumnAndAPartialScalerDropsThePadding) {
  const std::vector<float> in = ramp();
  const std::vector<float> out = reduce(ReduceFunc::sum, ReduceDim::row, in, face_row0_scaler(0.5f, 20, 32));
  for (int r = 0; r < kTile; ++r) {
    double want = 0;
    for (int c = 0; c < 20; ++c) want += 0.5 * in[r * kTile + c];
    EXPECT_FLOAT_EQ(out[r * kTile], float(want)) << "row " << r;
    for (int c = 1; c < kTile; ++c) EXPECT_EQ(out[r * kTile + c], 0.0f);
  }
}

TEST(ReduceScaler, ColSumWeighsEachRowAndAPartialScalerDropsThePadding) {
  const std::vector<float> in = ramp();
  const std::vector<float> out = reduce(ReduceFunc::sum, ReduceDim::col, in, face_row0_scaler(2.0f, 32, 24));
  for (int c = 0; c < kTile; ++c) {
    double want = 0;
    for (int r = 0; r < 24; ++r) want += 2.0 * in[r * kTile + c];
    EXPECT_FLOAT_EQ(out[c], float(want)) << "column " << c;
  }
  for (int i = kTile; i < kTileElems; ++i) ASSERT_EQ(out[i], 0.0f);
}

TEST(ReduceScaler, ScalarSumAppliesAUniformScalerTwice) {
  const std::vector<float> in = ramp();
  double total = 0;
  for (float v : in) total += v;
  const float s = 1.0f / 32.0f;  // sqrt(1 / 1024): a mean, as tt-metal's HW reduce passes it
  const std::vector<float> out = reduce(ReduceFunc::sum, ReduceDim::scalar, in, face_row0_scaler(s, 32, 32));
  EXPECT_FLOAT_EQ(out[0], float(total / 1024.0));
  for (int i = 1; i < kTileElems; ++i) ASSERT_EQ(out[i], 0.0f);
}

TEST(ReduceScaler, MaxKeepsOnlyTheScalersPowerOfTwo) {
  EXPECT_EQ(max_pool_scale(1.0f), 1.0f);
  EXPECT_EQ(max_pool_scale(3.0f), 2.0f);
  EXPECT_EQ(max_pool_scale(-0.75f), 0.5f);
  EXPECT_EQ(max_pool_scale(0.0f), 0.0f);
  const std::vector<float> in = ramp();
  const std::vector<float> row = reduce(ReduceFunc::max, ReduceDim::row, in, face_row0_scaler(3.0f, 32, 32));
  for (int r = 0; r < kTile; ++r) EXPECT_EQ(row[r * kTile], 2.0f * in[r * kTile + 31]);
  const std::vector<float> col = reduce(ReduceFunc::max, ReduceDim::col, in, face_row0_scaler(1.0f, 32, 32));
  for (int c = 0; c < kTile; ++c) EXPECT_EQ(col[c], in[31 * kTile + c]);
  const std::vector<float> all = reduce(ReduceFunc::max, ReduceDim::scalar, in, face_row0_scaler(1.0f, 32, 32));
  EXPECT_EQ(all[0], in[kTileElems - 1]);
}

TEST(ReduceScaler, OnlyRowZeroOfEachFaceCounts) {
  const std::vector<float> in = ramp();
  std::vector<float> s = face_row0_scaler(1.0f, 32, 32);
  for (int r = 1; r < 16; ++r) s[r * kTile + 3] = 100.0f;  // rows below a face's row 0 are not read
  const std::vector<float> out = reduce(ReduceFunc::sum, ReduceDim::row, in, s);
  double want = 0;
  for (int c = 0; c < kTile; ++c) want += in[c];
  EXPECT_FLOAT_EQ(out[0], float(want));
}

}  // namespace
}  // namespace ditmk::tt::emu
