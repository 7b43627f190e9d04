// `ditmk emulate` with the megakernel variants and `ditmk run --backend emu`, as a user runs them.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ditmk/model/synthetic.hpp"
#include "kernel_fixture.hpp"
#include "support/cli_runner.hpp"
#include "support/trace_check.hpp"

namespace ditmk::tt::host::testing {
namespace {

using ditmk::testing::run_command;

std::vector<double> json_actions(const std::string& out) {
  std::vector<double> values;
  const nlohmann::json doc = nlohmann::json::parse(out);
  for (const auto& row : doc.at("actions"))
    for (double v : row) values.push_back(v);
  return values;
}

TEST(KernelCli, EmulateBlockVariantWritesItsReport) {
  const std::string& release = release_dir(model::Version::n15);
  ditmk::testing::TempDir dir;
  const auto r = run_command(ditmk::testing::ditmk_binary() + " emulate --checkpoint " + release +
                             " --variant block --n-blocks 1 --dtype bfp8_b --report " + (dir / "r.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CB high-water marks"), std::string::npos);
  EXPECT_NE(r.out.find("blk0"), std::string::npos);
  const nlohmann::json report = nlohmann::json::parse(ditmk::testing::slurp(dir / "r.json"));
  EXPECT_GE(report.at("cos_vs_ref").get<double>(), 0.998);
  EXPECT_GT(report.at("rel_l2_vs_ref").get<double>(), 0.0);
  EXPECT_TRUE(report.at("faults").empty());
  const auto& block = report.at("dram_bytes_per_block").at(0);
  EXPECT_EQ(block.at("streamed_bytes"), block.at("arena_bytes"));
  EXPECT_NEAR(block.at("planned_us").get<double>(), 77.0, 1e-9);
  EXPECT_GT(block.at("dram_bound_us").get<double>(), 10.0);
  for (const auto& [name, cb] : report.at("cb_high_water").items())
    EXPECT_LE(cb.at("used").get<uint64_t>(), cb.at("planned").get<uint64_t>()) << name;
  EXPECT_GT(report.at("wall_seconds").get<double>(), 0.0);
}

TEST(KernelCli, EmulateTimingWritesItsReportAndTrace) {
  ditmk::testing::TempDir dir;
  const auto r = run_command(ditmk::testing::ditmk_binary() + " emulate --checkpoint " +
                             release_dir(model::Version::n15) + " --variant block --n-blocks 1 --protocol onehub" +
                             " --report " + (dir / "r.json") + " --trace " + (dir / "t.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("timing (onehub protocol)"), std::string::npos) << r.out;
  const nlohmann::json timing = nlohmann::json::parse(ditmk::testing::slurp(dir / "r.json")).at("timing");
  EXPECT_EQ(timing.at("protocol"), "onehub");
  EXPECT_GT(timing.at("us_per_block").get<double>(), 0.0);
  const nlohmann::json& block = timing.at("blocks").at(0);
  for (const char* field : {"index", "kind", "us", "dram_lower_bound_us", "breakdown"})
    EXPECT_TRUE(block.contains(field)) << field;
  EXPECT_GT(ditmk::testing::check_trace(ditmk::testing::slurp(dir / "t.json")).spans, 0u);
}

TEST(KernelCli, RunBackendEmuMatchesBackendRef) {
  const std::string& release = release_dir(model::Version::n15);
  const std::string run = ditmk::testing::ditmk_binary() + " run --checkpoint " + release + " --json --backend ";
  const auto emu = run_command(run + "emu");
  const auto ref = run_command(run + "ref");
  ASSERT_EQ(emu.exit_code, 0) << emu.err;
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  const std::vector<double> a = json_actions(emu.out), b = json_actions(ref.out);
  ASSERT_EQ(a.size(), b.size());
  double dot = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  ASSERT_GT(a.size(), 0u);
  EXPECT_GE(dot / std::sqrt(aa * bb), 0.9999);
}

TEST(KernelCli, EmulateRejectsAnFp32ArenaInOneLine) {
  const auto r = run_command(ditmk::testing::ditmk_binary() + " emulate --checkpoint " +
                             release_dir(model::Version::n15) + " --variant steps4 --dtype fp32");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("--dtype"), std::string::npos) << r.err;
}

TEST(KernelCli, EmulateRejectsAnUnknownProtocolInOneLine) {
  const auto r = run_command(ditmk::testing::ditmk_binary() + " emulate --checkpoint " +
                             release_dir(model::Version::n15) + " --variant block --protocol twohub");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("--protocol"), std::string::npos) << r.err;
}

TEST(KernelCli, EmulateRejectsTimingTheLinearProgramInOneLine) {
  const auto r = run_command(ditmk::testing::ditmk_binary() + " emulate --program linear --timing");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("--timing"), std::string::npos) << r.err;
}

TEST(KernelCli, RunBackendEmuRejectsWidthsThePlanCannotHoldInOneLine) {
  ditmk::testing::TempDir dir;
  model::SyntheticOptions options;
  options.progress = false;
  model::write_synthetic_release(model::tiny_config(model::Version::n15, 2), dir / "tiny", options);
  const auto r = run_command(ditmk::testing::ditmk_binary() + " run --backend emu --checkpoint " + (dir / "tiny"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("dims.width"), std::string::npos) << r.err;
}

TEST(KernelCli, EmulateRejectsMoreBlocksThanTheModelHasInOneLine) {
  const auto r = run_command(ditmk::testing::ditmk_binary() + " emulate --checkpoint " +
                             release_dir(model::Version::n15) + " --variant block --n-blocks 3");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("--n-blocks 3"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ditmk::tt::host::testing
