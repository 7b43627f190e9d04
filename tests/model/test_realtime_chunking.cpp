// N1.7's real-time chunking: the strength ramp against the values PyTorch gives for the released
// formula (float64), the inpainting rows, and every refused option naming itself.
#include <gtest/gtest.h>

#include "ditmk/model/realtime_chunking.hpp"
#include "ditmk/model/synthetic.hpp"
#include "support/error_of.hpp"

namespace ditmk::model {
namespace {

using testing::error_of;

// 1 - exp(-rate t) over torch.linspace(0, 1, overlap - frozen + 2, dtype=float64), normalised by
// its last value, both ends dropped (printed by PyTorch 1.13).
TEST(RealTimeChunking, StrengthRampIsTheReleasedOne) {
  const std::vector<double> ramp = velocity_strength({16, 5, 1, 2.0}, 8);
  const std::vector<double> want = {0.0, 0.3812806832206808, 0.6368607683496674, 0.8081812227791223,
                                    0.9230207576791214, 1.0, 1.0, 1.0};
  ASSERT_EQ(ramp.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(ramp[i], want[i], 1e-15) << i;
  const std::vector<double> gentle = velocity_strength({8, 6, 0, 0.5}, 8);
  const std::vector<double> want_gentle = {0.17520353744876188, 0.33832903003978393, 0.49020910461216877,
                                           0.6316189890251876,  0.7632804690843976,  0.8858655726882716, 1.0, 1.0};
  for (std::size_t i = 0; i < want_gentle.size(); ++i) EXPECT_NEAR(gentle[i], want_gentle[i], 1e-15) << i;
}

TEST(RealTimeChunking, EdgesOfTheRamp) {
  EXPECT_EQ(velocity_strength({8, 3, 3, 5.0}, 6), (std::vector<double>{0, 0, 0, 1, 1, 1})) << "frozen == overlap: no ramp";
  EXPECT_EQ(velocity_strength({8, 4, 1, 0.0}, 6), (std::vector<double>{0, 0, 0, 0, 1, 1}))
      << "rate 0: the release's clamp at 1e-8 makes the ramp 0 / 1e-8 = 0";
  EXPECT_EQ(velocity_strength({8, 0, 0, 2.0}, 4), (std::vector<double>{1, 1, 1, 1})) << "no overlap: every row moves";
}

ModelConfig n17() { return tiny_config(Version::n17, 4); }

Tensor chunk(int rows, int cols, double base) {
  Tensor t(DType::F32, {rows, cols});
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float(base + 0.01 * double(i));
  return t;
}

TEST(RealTimeChunking, InpaintsTheOverlapFromThePreviousChunk) {
  const ModelConfig c = n17();
  Matrix<double> noise(c.horizon, c.action_dim);
  for (std::size_t i = 0; i < noise.data.size(); ++i) noise.data[i] = -1.0 - double(i);
  const Tensor previous = chunk(c.horizon + 3, c.action_dim, 5.0);
  const RealTimeChunking rtc{c.horizon + 2, 4, 2, 3.0};
  const EulerStart start = euler_start(noise, previous.view(), rtc, c, "prev.npy");
  for (int r = 0; r < c.horizon; ++r)
    for (int a = 0; a < c.action_dim; ++a) {
      const double want = r < 4 ? double(previous.data<float>()[(c.horizon + 2 - 4 + r) * c.action_dim + a]) : noise(r, a);
      EXPECT_EQ(start.x0(r, a), want) << r << "," << a;
    }
  EXPECT_EQ(start.row_strength, velocity_strength(rtc, c.horizon));
  const EulerStart plain = euler_start(noise, std::nullopt, std::nullopt, c, "prev.npy");
  EXPECT_EQ(plain.x0.data, noise.data);
  EXPECT_TRUE(plain.row_strength.empty());
}

TEST(RealTimeChunking, RefusesWhatTheReleaseCannotIndexNamingTheOption) {
  const ModelConfig c = n17();
  const Matrix<double> noise(c.horizon, c.action_dim);
  const Tensor previous = chunk(c.horizon, c.action_dim, 0.0);
  auto error = [&](const RealTimeChunking& rtc, const TensorView& prev) {
    return error_of([&] { euler_start(noise, prev, rtc, c, "prev.npy"); });
  };
  const TensorView p = previous.view();
  const int H = c.horizon;

  EXPECT_NE(error({H, -1, 0, 1.0}, p).find("rtc_overlap_steps -1: must not be negative"), std::string::npos);
  EXPECT_NE(error({H, 2, -1, 1.0}, p).find("rtc_frozen_steps -1"), std::string::npos);
  EXPECT_NE(error({-2, 0, 0, 1.0}, p).find("action_horizon -2"), std::string::npos);
  EXPECT_NE(error({H + 1, H + 1, 0, 1.0}, p).find("rtc_overlap_steps " + std::to_string(H + 1) + ": more than the model's"),
            std::string::npos);
  EXPECT_NE(error({3, 4, 0, 1.0}, p).find("rtc_overlap_steps 4: more than action_horizon 3"), std::string::npos);
  EXPECT_NE(error({H + 1, 2, 0, 1.0}, p).find("action_horizon " + std::to_string(H + 1) + ": more than the " +
                                              std::to_string(H) + " rows of the previous chunk (prev.npy)"),
            std::string::npos);
  EXPECT_NE(error({H, 2, 3, 1.0}, p).find("rtc_frozen_steps 3: more than rtc_overlap_steps 2"), std::string::npos);
  EXPECT_NE(error({H, 2, 1, std::nan("")}, p).find("rtc_ramp_rate nan"), std::string::npos);
  const Tensor wide = chunk(H, c.action_dim + 1, 0.0);
  EXPECT_NE(error({H, 2, 1, 1.0}, wide.view()).find("prev.npy: shape"), std::string::npos);
  const Tensor ints(DType::I64, {H, c.action_dim});
  EXPECT_NE(error({H, 2, 1, 1.0}, ints.view()).find("prev.npy: dtype"), std::string::npos);
  Tensor nan = chunk(H, c.action_dim, 0.0);
  nan.data<float>()[c.action_dim + 2] = std::nanf("");
  EXPECT_NE(error({H, 2, 1, 1.0}, nan.view()).find("prev.npy: non-finite value at row 1, column 2"), std::string::npos);
  EXPECT_NE(error_of([&] { euler_start(noise, p, std::nullopt, c, "prev.npy"); }).find("prev.npy: a previous chunk needs"),
            std::string::npos);
  EXPECT_NE(error_of([&] { euler_start(noise, std::nullopt, RealTimeChunking{H, 1, 0, 1.0}, c, "prev.npy"); })
                .find("given without a previous action chunk"),
            std::string::npos);
  for (const Version v : {Version::n15, Version::n16}) {
    const ModelConfig other = tiny_config(v, 4);
    const Tensor prev = chunk(other.horizon, other.action_dim, 0.0);
    const std::string e = error_of([&] {
      euler_start(Matrix<double>(other.horizon, other.action_dim), prev.view(), RealTimeChunking{other.horizon, 1, 0, 1.0},
                  other, "prev.npy");
    });
    EXPECT_NE(e.find("prev.npy: real-time chunking is N1.7's"), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace ditmk::model
