#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "ditmk/model/precompute.hpp"
#include "ditmk/model/float64_ops.hpp"
#include "pack_fixture.hpp"

namespace ditmk::tt::testing {
namespace {

namespace fs = std::filesystem;

struct Bf16Table {
  int rows = 0, cols = 0;
  std::vector<uint16_t> words;
  uint16_t at(int r, int c) const { return words[std::size_t(r) * cols + c]; }
};

Bf16Table read_table(const std::string& dir, const std::string& name, int cols) {
  const fs::path path = fs::path(dir) / (name + ".bin");
  Bf16Table t;
  t.cols = cols;
  t.words.resize(fs::file_size(path) / 2);
  std::ifstream(path, std::ios::binary).read(reinterpret_cast<char*>(t.words.data()), std::streamsize(t.words.size() * 2));
  t.rows = int(t.words.size() / cols);
  return t;
}

uint16_t bf16(double v) { return f32_to_bf16(float(v)); }

class HostTables : public ::testing::Test {
 protected:
  void SetUp() override {
    f_ = &packed(TileFormat::bfp8_b);
    model::Float64Ops ops;
    ops.threads = 2;
    e_ = f_->weights.embodiment(kPackedEmbodiment);
    steps_ = model::precompute_steps<double>(ops, f_->weights, e_);
  }
  const PackFixture* f_ = nullptr;
  model::EmbodimentWeights e_;
  model::StepTables<double> steps_;
};

TEST_F(HostTables, AdalnRowsHoldOnePlusScaleThenShiftPerBlockAndOutputLayer) {
  const Bf16Table t = read_table(f_->pack_dir, "adaln_rows", 1536);
  const int n = 2, per_step = 2 * n + 2;
  ASSERT_EQ(t.rows, 4 * per_step);
  std::size_t checked = 0, nonzero = 0;
  for (int s = 0; s < 4; ++s) {
    for (int c = 0; c < 1536; ++c) {
      for (int b = 0; b < n; ++b) {
        ASSERT_EQ(t.at(s * per_step + 2 * b, c), bf16(1.0 + steps_.adaln[s](2 * b, c))) << s << " " << b << " " << c;
        ASSERT_EQ(t.at(s * per_step + 2 * b + 1, c), bf16(steps_.adaln[s](2 * b + 1, c))) << s << " " << b << " " << c;
        nonzero += steps_.adaln[s](2 * b + 1, c) != 0.0;
      }
      // out_modulation row 0 is the shift, row 1 the scale; the table keeps the blocks' order
      ASSERT_EQ(t.at(s * per_step + 2 * n, c), bf16(1.0 + steps_.out_modulation[s](1, c))) << s << " " << c;
      ASSERT_EQ(t.at(s * per_step + 2 * n + 1, c), bf16(steps_.out_modulation[s](0, c))) << s << " " << c;
      checked += 2 * n + 2;
    }
  }
  EXPECT_EQ(checked, std::size_t(4 * per_step * 1536));
  EXPECT_GT(nonzero, std::size_t(4 * n * 1536 * 9 / 10));
  // the steps differ (t = 0, 250, 500, 750), so a table repeated over steps would fail above
  EXPECT_NE(steps_.adaln[0](0, 7), steps_.adaln[3](0, 7));
}

TEST_F(HostTables, BiasRowsFollowTheOpsPaddedColumns) {
  const Bf16Table t = read_table(f_->pack_dir, "bias_rows", 6144);
  ASSERT_EQ(t.rows, 4 * 2 + 4);
  const model::Weights& w = f_->weights;
  const double q_scale = 1.0 / std::sqrt(48.0);
  auto bias = [](const model::Linear& l, int j) { return l.bias.at(std::size_t(j)); };
  for (int col = 0; col < 6144; ++col) {
    const int part = col / 2048, head = (col % 2048) / 64, d = col % 64;
    const bool real = d < 48;
    const int j = head * 48 + d;
    // block 0 is a cross block: Q only, scaled, heads padded to 64
    const double q0 = part == 0 && real ? bias(w.blocks[0].q, j) * q_scale : 0.0;
    ASSERT_EQ(t.at(0, col), bf16(q0)) << col;
    // block 1 is a self block: [Q * scale | K | V], each head padded
    const model::Linear* qkv[3] = {&w.blocks[1].q, &w.blocks[1].k, &w.blocks[1].v};
    const double q1 = real ? bias(*qkv[part], j) * (part == 0 ? q_scale : 1.0) : 0.0;
    ASSERT_EQ(t.at(4, col), bf16(q1)) << col;
    for (int b = 0; b < 2; ++b) {
      ASSERT_EQ(t.at(4 * b + 1, col), bf16(col < 1536 ? bias(w.blocks[b].out, col) : 0.0)) << b << " " << col;
      ASSERT_EQ(t.at(4 * b + 2, col), bf16(bias(w.blocks[b].ff1, col))) << b << " " << col;
      ASSERT_EQ(t.at(4 * b + 3, col), bf16(col < 1536 ? bias(w.blocks[b].ff2, col) : 0.0)) << b << " " << col;
    }
    ASSERT_EQ(t.at(8, col), bf16(col < 1024 ? bias(w.proj_out_2, col) : 0.0)) << col;
    ASSERT_EQ(t.at(9, col), bf16(col < 1024 ? bias(e_.dec1, col) : 0.0)) << col;
    ASSERT_EQ(t.at(10, col), bf16(col < 32 ? bias(e_.dec2, col) : 0.0)) << col;
    ASSERT_EQ(t.at(11, col), bf16(col < 1536 ? bias(e_.enc1, col) : 0.0)) << col;
  }
  // the embodiment slice is the packed one, not slot 0
  const model::EmbodimentWeights other = w.embodiment(0);
  EXPECT_NE(t.at(9, 3), bf16(bias(other.dec1, 3)));
}

TEST_F(HostTables, StepBiasesAndPositionRows) {
  const Bf16Table b2 = read_table(f_->pack_dir, "b2_step", 1536);
  ASSERT_EQ(b2.rows, 4);
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < 1536; ++c) ASSERT_EQ(b2.at(s, c), bf16(steps_.tau_bias(s, c))) << s << " " << c;
  EXPECT_NE(b2.at(0, 5), b2.at(2, 5));

  const Bf16Table b3 = read_table(f_->pack_dir, "b3_pos_rows", 1536);
  ASSERT_EQ(b3.rows, 64);
  const int row0 = 1 + 32, h = 16;  // state, 32 future tokens, then the 16 action rows
  for (int r = 0; r < 64; ++r) {
    for (int c = 0; c < 1536; ++c) {
      const bool action = r >= row0 && r < row0 + h;
      const double want =
          action ? e_.enc3.bias.at(c) + f_->weights.position_embedding.at(std::size_t(r - row0) * 1536 + c) : 0.0;
      ASSERT_EQ(b3.at(r, c), bf16(want)) << r << " " << c;
    }
  }
  const Bf16Table future = read_table(f_->pack_dir, "future_tokens", 1536);
  ASSERT_EQ(future.rows, 32);
  for (std::size_t i = 0; i < future.words.size(); ++i)
    ASSERT_EQ(future.words[i], bf16(f_->weights.future_tokens.at(i))) << i;
}

}  // namespace
}  // namespace ditmk::tt::testing
