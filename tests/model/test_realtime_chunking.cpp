// N1.7's real-time chunking: the strength ramp against the values PyTorch gives for the released
// formula (float32), Python's slices, the inputs the release runs at its edges, and every refused
// option naming itself.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ditmk/model/realtime_chunking.hpp"
#include "ditmk/model/synthetic.hpp"
#include "support/error_of.hpp"

namespace ditmk::model {
namespace {

using testing::error_of;

// The release's float32 ramp, 1 - exp(-rate t) over torch.linspace(0, 1, overlap - frozen + 2)
// normalised by its last value, both ends dropped: the values PyTorch 1.13 prints for it. ditmk's
// exp is glibc's float exp; PyTorch's CPU kernel (Sleef) rounds one of them an ulp the other way.
TEST(RealTimeChunking, StrengthRampIsTheReleasedFloat32One) {
  // tolerance: 0, or one float32 ulp of exp near 1 over the ramp's last value
  const auto expect_ramp = [](const RealTimeChunking& rtc, int horizon, const std::vector<float>& middle, double tolerance) {
    const std::vector<double> got = velocity_strength(rtc, horizon);
    for (int64_t r = 0; r < horizon; ++r) {
      const std::size_t i = std::size_t(r);
      if (r < rtc.frozen_steps) EXPECT_EQ(got[i], 0.0) << r;
      else if (r >= rtc.overlap_steps) EXPECT_EQ(got[i], 1.0) << r;
      else EXPECT_NEAR(got[i], middle[std::size_t(r - rtc.frozen_steps)], tolerance) << rtc.ramp_rate << " row " << r;
    }
  };
  expect_ramp({16, 5, 1, 2.0}, 8, {0.38128069043159485f, 0.6368607878684998f, 0.8081812262535095f, 0.9230207204818726f}, 0);
  expect_ramp({8, 6, 0, 0.5}, 8,
              {0.1752035915851593f, 0.3383289873600006f, 0.4902092218399048f, 0.6316189765930176f, 0.7632805109024048f,
               0.8858655691146851f},
              6e-8 / (1.0 - std::exp(-0.5)));
  // A small rate: float32's 1 - exp(-1e-6 t) holds whole ulps of 1, so the ramp is 2/17, 4/17, 6/17,
  // 7/17, ... (float64 would give 1/9, 2/9, ...).
  expect_ramp({8, 8, 0, 1e-6}, 8,
              {0.11764705926179886f, 0.23529411852359772f, 0.3529411852359772f, 0.4117647111415863f, 0.529411792755127f,
               0.6470588445663452f, 0.7647058963775635f, 0.8823529481887817f},
              0);
  expect_ramp({8, 8, 0, 1e-10}, 8, std::vector<float>(8, 0.0f), 0);  // exp rounds to 1: the clamp gives 0 / 1e-8
  expect_ramp({8, 8, 0, 1e-12}, 8, std::vector<float>(8, 0.0f), 0);
  expect_ramp({8, 6, 1, std::numeric_limits<double>::infinity()}, 8, std::vector<float>(5, 1.0f), 0);
  EXPECT_EQ(velocity_strength({8, 6, 1, std::numeric_limits<double>::infinity()}, 8), velocity_strength({8, 6, 1, 1e30}, 8))
      << "an infinite rate is a very large finite one";
  const std::vector<double> steep_negative = velocity_strength({8, 7, 1, -3.0}, 8);
  EXPECT_EQ(steep_negative[1], double(-53506304.0f)) << "a negative rate: huge negative strengths, as released";
}

TEST(RealTimeChunking, EdgesOfTheRamp) {
  EXPECT_EQ(velocity_strength({8, 3, 3, 5.0}, 6), (std::vector<double>{0, 0, 0, 1, 1, 1})) << "frozen == overlap: no ramp";
  EXPECT_EQ(velocity_strength({8, 4, 1, 0.0}, 6), (std::vector<double>{0, 0, 0, 0, 1, 1}))
      << "rate 0: the release's clamp at 1e-8 makes the ramp 0 / 1e-8 = 0";
  EXPECT_EQ(velocity_strength({8, 0, 0, 2.0}, 4), (std::vector<double>{1, 1, 1, 1})) << "no overlap: every row moves";
  EXPECT_EQ(velocity_strength({8, 3, 4, 2.0}, 6), (std::vector<double>{0, 0, 0, 0, 1, 1}))
      << "frozen == overlap + 1: a one-point ramp with no middle, one more frozen row";
  EXPECT_EQ(velocity_strength({8, 0, -1, 2.0}, 4), (std::vector<double>{0, 0, 0, 1}))
      << "a negative frozen count with no overlap: [:-1] frozen, and the ramp's one value broadcast over no rows";
  EXPECT_EQ(velocity_strength({8, 2, 2, std::nan("")}, 4), (std::vector<double>{0, 0, 1, 1})) << "a NaN rate nobody reads";
}

TEST(RealTimeChunking, SlicesAsPython) {
  using Slice = std::pair<int64_t, int64_t>;
  const auto slice = [](std::optional<int64_t> a, std::optional<int64_t> b, int64_t n) {
    const RowSlice s = python_slice(a, b, n);
    return Slice{s.first, s.count};
  };
  EXPECT_EQ(slice(2, 5, 8), Slice(2, 3));
  EXPECT_EQ(slice(-3, std::nullopt, 8), Slice(5, 3));
  EXPECT_EQ(slice(std::nullopt, -1, 8), Slice(0, 7));
  EXPECT_EQ(slice(-20, 3, 8), Slice(0, 3));
  EXPECT_EQ(slice(7, 12, 8), Slice(7, 1));
  EXPECT_EQ(slice(6, 2, 8), Slice(6, 0));
  EXPECT_EQ(slice(9, 12, 8), Slice(8, 0));
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

TEST(RealTimeChunking, AcceptsWhatTheReleaseRuns) {
  const ModelConfig c = n17();
  const int H = c.horizon, A = c.action_dim;
  Matrix<double> noise(H, A);
  for (std::size_t i = 0; i < noise.data.size(); ++i) noise.data[i] = -1.0 - double(i);
  const Tensor previous = chunk(H, A, 5.0);
  const float* prev = previous.data<float>();

  // frozen = overlap + 1: row `overlap` is frozen with its noise; the warning says so.
  const EulerStart quirk = euler_start(noise, previous.view(), RealTimeChunking{H, 2, 3, 1.0}, c, "prev.npy");
  EXPECT_EQ(quirk.row_strength[2], 0.0);
  EXPECT_EQ(quirk.x0(2, 0), noise(2, 0));
  EXPECT_EQ(quirk.x0(1, 0), double(prev[(H - 1) * A]));
  ASSERT_EQ(quirk.warnings.size(), 1u);
  EXPECT_NE(quirk.warnings[0].find("rtc_frozen_steps 3 with rtc_overlap_steps 2: rows [2:3] are frozen but not inpainted"),
            std::string::npos)
      << quirk.warnings[0];

  // No overlap: action_horizon past the chunk, or negative, is a plain run.
  for (const int64_t horizon : {int64_t(H + 5), int64_t(-3)}) {
    const EulerStart plain = euler_start(noise, previous.view(), RealTimeChunking{horizon, 0, 0, 2.0}, c, "prev.npy");
    EXPECT_EQ(plain.x0.data, noise.data) << horizon;
    EXPECT_EQ(plain.row_strength, std::vector<double>(std::size_t(H), 1.0)) << horizon;
    EXPECT_TRUE(plain.warnings.empty());
  }

  // A non-finite value in a row the options never read.
  Tensor unread = chunk(H, A, 0.0);
  unread.data<float>()[0] = std::nanf("");
  const EulerStart skipped = euler_start(noise, unread.view(), RealTimeChunking{H, 2, 1, 1.0}, c, "prev.npy");
  EXPECT_EQ(skipped.x0(0, 0), double(unread.data<float>()[(H - 2) * A]));

  // One chunk row broadcast over the overlap, as PyTorch broadcasts a slice of one row.
  const EulerStart broadcast = euler_start(noise, previous.view(), RealTimeChunking{H + 2, 3, 1, 1.0}, c, "prev.npy");
  for (int r = 0; r < 3; ++r) EXPECT_EQ(broadcast.x0(r, 1), double(prev[(H - 1) * A + 1])) << r;
  EXPECT_EQ(broadcast.x0(3, 1), noise(3, 1));
}

TEST(RealTimeChunking, RefusesWhatTheReleaseCannotRunNamingTheOption) {
  const ModelConfig c = n17();
  const Matrix<double> noise(c.horizon, c.action_dim);
  const Tensor previous = chunk(c.horizon, c.action_dim, 0.0);
  auto error = [&](const RealTimeChunking& rtc, const TensorView& prev) {
    return error_of([&] { euler_start(noise, prev, rtc, c, "prev.npy"); });
  };
  const TensorView p = previous.view();
  const int H = c.horizon;
  const std::string h = std::to_string(H);

  EXPECT_NE(error({H, -1, 0, 1.0}, p).find("rtc_overlap_steps -1: negative"), std::string::npos);
  EXPECT_NE(error({H, 2, -1, 1.0}, p).find("rtc_frozen_steps -1: the release's ramp has 3 values for the 0 rows [-1:2]"),
            std::string::npos);
  EXPECT_NE(error({H + 1, H + 1, 0, 1.0}, p).find("rtc_overlap_steps " + std::to_string(H + 1) + ": more than the model's"),
            std::string::npos);
  EXPECT_NE(error({3, 4, 0, 1.0}, p).find("rtc_overlap_steps 4: more than action_horizon 3"), std::string::npos);
  EXPECT_NE(error({H + 1, 3, 0, 1.0}, p).find("action_horizon " + std::to_string(H + 1) + ": more than the " + h +
                                              " rows of the previous chunk (prev.npy; the release's slice"),
            std::string::npos);
  EXPECT_NE(error({H, 2, 4, 1.0}, p).find("rtc_frozen_steps 4: more than rtc_overlap_steps 2 + 1"), std::string::npos);
  EXPECT_NE(error({H, 3, 1, std::nan("")}, p).find("rtc_ramp_rate nan: the release's float32 ramp is not finite"),
            std::string::npos);
  EXPECT_NE(error({H, 3, 1, -std::numeric_limits<double>::infinity()}, p).find("rtc_ramp_rate -inf"), std::string::npos);
  const Tensor wide = chunk(H, c.action_dim + 1, 0.0);
  EXPECT_NE(error({H, 2, 1, 1.0}, wide.view()).find("prev.npy: shape"), std::string::npos);
  const Tensor ints(DType::I64, {H, c.action_dim});
  EXPECT_NE(error({H, 2, 1, 1.0}, ints.view()).find("prev.npy: dtype"), std::string::npos);
  Tensor nan = chunk(H, c.action_dim, 0.0);
  nan.data<float>()[(H - 1) * c.action_dim + 2] = std::nanf("");
  EXPECT_NE(error({H, 2, 1, 1.0}, nan.view()).find("prev.npy: non-finite value at row " + std::to_string(H - 1) + ", column 2"),
            std::string::npos);
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
