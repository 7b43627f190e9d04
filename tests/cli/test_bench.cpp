#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixtures.hpp"
#include "support/cli_runner.hpp"

namespace ditmk::testing {
namespace {

// The report a user scripts against: every field the bench promises, with values that can only
// come from a real measurement (positive, finite, floors below the measured time).
TEST(BenchCommand, JsonReportHasTheMeasurementsAndBothFloors) {
  const TinyFixture& f = tiny_fixture(model::Version::n16);
  const CliResult r = run_ditmk("bench --json --threads 2 --runs 5 --warmup 1 --dtype bf16 --checkpoint " + f.release +
                                " --observation " + f.observation);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* field : {"median_ms_per_denoise", "min_ms_per_denoise", "max_ms_per_denoise", "median_ms_per_step",
                            "weight_bytes_per_step", "achieved_gbps", "achieved_gflops", "stream_bandwidth_gbps",
                            "floor_ms_per_denoise", "ratio_to_floor", "compute_peak_gflops",
                            "compute_floor_ms_per_denoise", "ratio_to_compute_floor", "precompute_flops",
                            "achieved_gflops_precompute", "achieved_gflops_steps", "precompute_fraction_of_peak",
                            "steps_fraction_of_peak"}) {
    ASSERT_TRUE(j.contains(field)) << field;
    EXPECT_GT(j[field].get<double>(), 0.0) << field;
  }
  EXPECT_LE(j["min_ms_per_denoise"].get<double>(), j["median_ms_per_denoise"].get<double>());
  EXPECT_LE(j["median_ms_per_denoise"].get<double>(), j["max_ms_per_denoise"].get<double>());
  // No run can beat either physical floor.
  EXPECT_GE(j["ratio_to_floor"].get<double>(), 1.0);
  EXPECT_GE(j["ratio_to_compute_floor"].get<double>(), 1.0);
  EXPECT_EQ(j["compute_peak_instruction"].get<std::string>().empty(), false);
  // The precompute and the steps split the call's multiply-adds between them.
  EXPECT_LT(j["precompute_flops"].get<double>(), j["flops_per_denoise"].get<double>());
  EXPECT_NEAR(j["achieved_gflops_steps"].get<double>() / j["compute_peak_gflops"].get<double>(),
              j["steps_fraction_of_peak"].get<double>(), 1e-9);
  EXPECT_GT(j["cos_vs_ref"].get<double>(), 0.999);
  EXPECT_FALSE(j.contains("peers"));
}

TEST(BenchCommand, TableNamesBothFloors) {
  const TinyFixture& f = tiny_fixture(model::Version::n15);
  const CliResult r = run_ditmk("bench --threads 1 --runs 5 --warmup 0 --dtype bfp8_b --isa avx2 --checkpoint " +
                                f.release + " --observation " + f.observation);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("stream floor"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compute floor"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("against peak   precompute"), std::string::npos) << r.out;
}

// int8 is timed beside bf16 in the same run, each against the peak of its own instruction.
TEST(BenchCommand, Int8ReportsItsFloorBesideBf16AndTheSpeedUp) {
  const TinyFixture& f = tiny_fixture(model::Version::n17);
  const CliResult r = run_ditmk("bench --json --threads 2 --runs 5 --warmup 1 --dtype int8 --checkpoint " + f.release +
                                " --observation " + f.observation);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["engine"]["weight_format"], "int8");
  EXPECT_FALSE(j["engine"]["int8_dot"].get<std::string>().empty());
  ASSERT_TRUE(j.contains("bf16_same_run"));
  const auto& b = j["bf16_same_run"];
  EXPECT_EQ(b["engine"]["weight_format"], "bf16");
  for (const char* field : {"median_ms_per_denoise", "compute_peak_gflops", "compute_floor_ms_per_denoise",
                            "ratio_to_compute_floor", "cos_vs_ref"}) {
    EXPECT_GT(j[field].get<double>(), 0.0) << field;
    EXPECT_GT(b[field].get<double>(), 0.0) << "bf16 " << field;
  }
  EXPECT_NE(j["compute_peak_instruction"], b["compute_peak_instruction"]);
  EXPECT_NEAR(j["speedup_vs_bf16"].get<double>(),
              b["median_ms_per_denoise"].get<double>() / j["median_ms_per_denoise"].get<double>(), 1e-9);
  EXPECT_GE(j["ratio_to_compute_floor"].get<double>(), 1.0);
  // the int8 gates of DESIGN.md, on the timed output
  EXPECT_GE(j["cos_vs_ref"].get<double>(), 0.999);
  EXPECT_GE(j["min_step_cos_vs_ref"].get<double>(), 0.998);
  EXPECT_GE(b["min_step_cos_vs_ref"].get<double>(), 0.9999);
}

}  // namespace
}  // namespace ditmk::testing
