#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/metrics.hpp"
#include "ditmk/io/npy.hpp"
#include "fixtures.hpp"
#include "support/cli_runner.hpp"

namespace ditmk::testing {
namespace {

using model::Version;

std::string name_of(Version v) { return std::string(model::version_name(v)); }

class RunCommand : public ::testing::TestWithParam<Version> {};

TEST_P(RunCommand, SameSeedSameBytesOtherSeedOtherActions) {
  const TinyFixture& f = tiny_fixture(GetParam());
  TempDir dir;
  const std::string common = "run --backend ref --checkpoint " + f.release + " --observation " + f.observation;
  ASSERT_EQ(run_ditmk(common + " --seed 1 --out " + (dir / "a.npy")).exit_code, 0);
  ASSERT_EQ(run_ditmk(common + " --seed 1 --out " + (dir / "b.npy")).exit_code, 0);
  const CliResult c = run_ditmk(common + " --seed 2 --out " + (dir / "c.npy"));
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(slurp(dir / "a.npy"), slurp(dir / "b.npy"));
  EXPECT_NE(slurp(dir / "a.npy"), slurp(dir / "c.npy"));
  const Tensor a = io::read_npy(dir / "a.npy");
  EXPECT_EQ(a.shape(), (Shape{f.config.horizon, f.config.action_dim}));
  EXPECT_EQ(a.dtype(), DType::F32);
}

TEST_P(RunCommand, JsonReportsTheActions) {
  const TinyFixture& f = tiny_fixture(GetParam());
  const CliResult r = run_ditmk("run --backend ref --json --checkpoint " + f.release + " --noise " + f.noise);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["version"], name_of(GetParam()));
  EXPECT_EQ(j["actions"].size(), std::size_t(f.config.horizon));
  EXPECT_EQ(j["actions"][0].size(), std::size_t(f.config.action_dim));
}

int lines(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

// Written to a file or a pipe, a command prints its errors and at most one summary line; progress
// lines and the per-call preview are for a terminal (there under `script`, a pseudo-terminal).
TEST(TerminalOutput, OneSummaryLineOffATerminalProgressOnOne) {
  const TinyFixture& f = tiny_fixture(Version::n16);
  TempDir dir;
  const CliResult r = run_ditmk("run --backend ref --repeat 2 --checkpoint " + f.release + " --out " + (dir / "a.npy"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 1) << r.out;
  EXPECT_NE(r.out.find("(median of 2 calls), wrote " + (dir / "a.npy")), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
  const CliResult m = run_ditmk("make-checkpoint --tiny --version n17 --out " + (dir / "quiet"));
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(m.err, "") << "no progress lines off a terminal";
  EXPECT_EQ(lines(m.out), 1) << m.out;
  if (run_command("script --version").exit_code != 0) GTEST_SKIP() << "no `script` for a pseudo-terminal";
  const CliResult tty = run_command("script -qec '" + ditmk_binary() + " make-checkpoint --tiny --version n17 --out " +
                                    (dir / "shown") + "' /dev/null");
  ASSERT_EQ(tty.exit_code, 0) << tty.out;
  EXPECT_NE(tty.out.find("100% ("), std::string::npos) << "progress on a terminal: " << tty.out;
  const CliResult preview = run_command("script -qec '" + ditmk_binary() + " run --backend ref --checkpoint " + f.release +
                                        "' /dev/null");
  ASSERT_EQ(preview.exit_code, 0) << preview.out;
  EXPECT_NE(preview.out.find("call 1: actions"), std::string::npos) << preview.out;
}

// The reference against an independent PyTorch float64 implementation of MODEL.md, masks included.
TEST_P(RunCommand, ReferenceAgreesWithIndependentTorchImplementation) {
  const TinyFixture& f = tiny_fixture(GetParam());
  const std::string script = std::string(ditmk::build::source_dir()) + "/tests/torch/groot_ref.py";
  if (run_command("/usr/bin/python3 -c 'import torch'").exit_code != 0) GTEST_SKIP() << "python3-torch missing";
  TempDir dir;
  const std::string args = " --checkpoint " + f.release + " --observation " + f.observation + " --noise " + f.noise +
                           " --embodiment 1";
  const CliResult ours = run_ditmk("run --backend ref" + args + " --out " + (dir / "ours.npz"));
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  const CliResult theirs = run_command("/usr/bin/python3 " + script + args + " --out " + (dir / "torch.npz"));
  ASSERT_EQ(theirs.exit_code, 0) << theirs.err;
  for (const char* name : {"actions", "velocities"}) {
    const auto ours_values = npz_values(dir / "ours.npz", name), torch_values = npz_values(dir / "torch.npz", name);
    ASSERT_EQ(ours_values.size(), torch_values.size()) << name;
    const Agreement m = agreement(ours_values, torch_values);
    EXPECT_LT(m.rel_l2, 1e-12) << name;
    EXPECT_LT(m.max_abs_err, 1e-11) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, RunCommand, ::testing::Values(Version::n15, Version::n16, Version::n17),
                         [](const auto& info) { return name_of(info.param); });

TEST(RunCommand, TheWeightCacheIsWrittenThenMappedAndCanBeSkipped) {
  const TinyFixture& f = tiny_fixture(Version::n15);
  TempDir cache;
  const std::string run = "DITMK_WEIGHT_CACHE=" + cache.path().string() + " " + ditmk_binary() +
                          " run --json --dtype bfp8_b --threads 2 --checkpoint " + f.release + " --noise " + f.noise;
  const auto report = [](const CliResult& r) { return nlohmann::json::parse(r.out); };
  const CliResult skipped = run_command(run + " --no-weight-cache");
  ASSERT_EQ(skipped.exit_code, 0) << skipped.err;
  EXPECT_EQ(report(skipped)["weight_cache"], "off");
  EXPECT_TRUE(std::filesystem::is_empty(cache.path()));
  const CliResult written = run_command(run), mapped = run_command(run);
  ASSERT_EQ(written.exit_code, 0) << written.err;
  ASSERT_EQ(mapped.exit_code, 0) << mapped.err;
  EXPECT_EQ(report(written)["weight_cache"], "written");
  EXPECT_EQ(report(mapped)["weight_cache"], "mapped");
  EXPECT_EQ(report(mapped)["actions"], report(skipped)["actions"]);
  EXPECT_EQ(report(written)["actions"], report(skipped)["actions"]);
}

TEST(RunCommand, InputIdsGiveTheSameKeysAsAnImageMask) {
  const TinyFixture& f = tiny_fixture(Version::n16);
  TempDir dir;
  const model::Observation obs = model::synthetic_observation(f.config, 4);
  Tensor ids(DType::I64, {obs.tokens()});
  for (int j = 0; j < obs.tokens(); ++j) ids.data<int64_t>()[j] = obs.image_mask[j] ? 151669 : 1000 + j;
  Tensor mask(DType::BOOL, {obs.tokens()}), state(DType::F32, {int64_t(obs.state.size())});
  for (int j = 0; j < obs.tokens(); ++j) mask.data<uint8_t>()[j] = obs.attention_mask[j];
  for (std::size_t i = 0; i < obs.state.size(); ++i) state.data<float>()[i] = obs.state[i];
  io::write_npz(dir / "ids.npz", {{"features", obs.features}, {"attention_mask", mask.view()},
                                  {"input_ids", ids.view()}, {"state", state.view()}});
  const std::string common = "run --backend ref --checkpoint " + f.release + " --noise " + f.noise;
  ASSERT_EQ(run_ditmk(common + " --observation " + f.observation + " --out " + (dir / "mask.npy")).exit_code, 0);
  const CliResult r = run_ditmk(common + " --observation " + (dir / "ids.npz") + " --image-token-id 151669 --out " + (dir / "ids.npy"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(dir / "mask.npy"), slurp(dir / "ids.npy"));
}

TEST(CompareCommand, ReportsCosineRelativeL2AndMaxError) {
  TempDir dir;
  Tensor a(DType::F32, {4}), b(DType::F32, {4});
  const float va[] = {1, 2, 3, 4}, vb[] = {1, 2, 3, 5};
  std::copy(va, va + 4, a.data<float>());
  std::copy(vb, vb + 4, b.data<float>());
  io::write_npy(dir / "a.npy", a.view());
  io::write_npy(dir / "b.npy", b.view());
  const CliResult r = run_ditmk("compare --json " + (dir / "a.npy") + " " + (dir / "b.npy"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["rel_l2"].get<double>(), 1.0 / std::sqrt(39.0), 1e-12);
  EXPECT_NEAR(j["max_abs_err"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(j["cosine"].get<double>(), 34.0 / std::sqrt(30.0 * 39.0), 1e-12);
}

}  // namespace
}  // namespace ditmk::testing

namespace ditmk::testing {
namespace {

// The independent implementation's own encodings hit MODEL.md's check values.
TEST(TorchReference, SelfTestPasses) {
  if (run_command("/usr/bin/python3 -c 'import torch'").exit_code != 0) GTEST_SKIP() << "python3-torch missing";
  const CliResult r = run_command("/usr/bin/python3 " + std::string(ditmk::build::source_dir()) + "/tests/torch/groot_ref.py --self-test");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace ditmk::testing
