// `ditmk run --previous-actions`: the frozen rows of N1.7's real-time chunking are the previous
// chunk's rows bit for bit on ref and cpu, the ramp rows move, and a chunk without overlap is the
// plain denoise.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>

#include "ditmk/io/npy.hpp"
#include "fixtures.hpp"
#include "support/cli_runner.hpp"

namespace ditmk::testing {
namespace {

using model::Version;

TEST(RealTimeChunking, FrozenRowsAreThePreviousChunkBitForBit) {
  const TinyFixture& f = tiny_fixture(Version::n17);
  const int H = f.config.horizon, A = f.config.action_dim;
  const int horizon = H + 1, overlap = 5, frozen = 2;
  TempDir dir;
  Tensor previous(DType::F32, {H + 2, A});
  const Tensor draw = model::synthetic_noise(f.config, 21);
  for (int64_t i = 0; i < previous.numel(); ++i)
    previous.data<float>()[i] = 0.7f * draw.data<float>()[i % draw.numel()] + 0.001f * float(i);
  io::write_npy(dir / "prev.npy", previous.view());
  const std::string common = "run --threads 2 --checkpoint " + f.release + " --observation " + f.observation +
                             " --noise " + f.noise;
  const std::string rtc = fmt::format(" --previous-actions {} --rtc-horizon {} --rtc-overlap {} --rtc-frozen {} --rtc-ramp-rate 3.5",
                                      dir / "prev.npy", horizon, overlap, frozen);
  for (const std::string backend : {"ref", "cpu"}) {
    const std::string out = dir / (backend + ".npy"), plain = dir / (backend + "_plain.npy");
    const CliResult r = run_ditmk(common + " --backend " + backend + rtc + " --out " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(run_ditmk(common + " --backend " + backend + " --out " + plain).exit_code, 0);
    const Tensor got = io::read_npy(out), without = io::read_npy(plain);
    const float* first = previous.data<float>() + std::size_t(horizon - overlap) * A;
    EXPECT_EQ(std::memcmp(got.data<float>(), first, sizeof(float) * frozen * A), 0) << backend << ": frozen rows";
    for (int r = frozen; r < overlap; ++r)
      EXPECT_NE(std::memcmp(got.data<float>() + r * A, first + r * A, sizeof(float) * A), 0) << backend << ": ramp row " << r;
    EXPECT_NE(std::memcmp(got.data<float>(), without.data<float>(), sizeof(float) * H * A), 0) << backend;
    const std::string none = dir / (backend + "_none.npy");
    const CliResult n = run_ditmk(common + " --backend " + backend +
                                  fmt::format(" --previous-actions {} --rtc-horizon {} --rtc-overlap 0 --rtc-frozen 0 "
                                              "--rtc-ramp-rate 3.5 --out {}", dir / "prev.npy", horizon, none));
    ASSERT_EQ(n.exit_code, 0) << n.err;
    EXPECT_EQ(slurp(none), slurp(plain)) << backend << ": no overlap is the plain denoise";
  }
}

// The edges the release runs: an infinite ramp rate is a very large finite one, and a frozen row
// that is not inpainted keeps its noise, with a warning line.
TEST(RealTimeChunking, EdgesTheReleaseRunsWithAWarningForTheQuirk) {
  const TinyFixture& f = tiny_fixture(Version::n17);
  const int H = f.config.horizon, A = f.config.action_dim;
  TempDir dir;
  io::write_npy(dir / "prev.npy", model::synthetic_noise(f.config, 5).view());
  const std::string common = "run --threads 2 --checkpoint " + f.release + " --observation " + f.observation + " --noise " +
                             f.noise + " --previous-actions " + (dir / "prev.npy");
  const auto run = [&](const std::string& options, const std::string& out) {
    const CliResult r = run_ditmk(common + options + " --out " + (dir / out));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r;
  };
  run(fmt::format(" --rtc-horizon {} --rtc-overlap 4 --rtc-frozen 1 --rtc-ramp-rate inf", H), "inf.npy");
  run(fmt::format(" --rtc-horizon {} --rtc-overlap 4 --rtc-frozen 1 --rtc-ramp-rate 1e30", H), "large.npy");
  EXPECT_EQ(slurp(dir / "inf.npy"), slurp(dir / "large.npy"));
  const CliResult quirk = run(fmt::format(" --rtc-horizon {} --rtc-overlap 3 --rtc-frozen 4 --rtc-ramp-rate 2", H), "quirk.npy");
  EXPECT_NE(quirk.err.find("warning: rtc_frozen_steps 4 with rtc_overlap_steps 3: rows [3:4] are frozen but not inpainted"),
            std::string::npos)
      << quirk.err;
  const Tensor got = io::read_npy(dir / "quirk.npy"), noise = io::read_npy(f.noise);
  EXPECT_EQ(std::memcmp(got.data<float>() + 3 * A, noise.data<float>() + 3 * A, sizeof(float) * A), 0)
      << "row 3 keeps its noise";
}

}  // namespace
}  // namespace ditmk::testing
