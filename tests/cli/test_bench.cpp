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
                            "compute_floor_ms_per_denoise", "ratio_to_compute_floor"}) {
    ASSERT_TRUE(j.contains(field)) << field;
    EXPECT_GT(j[field].get<double>(), 0.0) << field;
  }
  EXPECT_LE(j["min_ms_per_denoise"].get<double>(), j["median_ms_per_denoise"].get<double>());
  EXPECT_LE(j["median_ms_per_denoise"].get<double>(), j["max_ms_per_denoise"].get<double>());
  // No run can beat either physical floor.
  EXPECT_GE(j["ratio_to_floor"].get<double>(), 1.0);
  EXPECT_GE(j["ratio_to_compute_floor"].get<double>(), 1.0);
  EXPECT_EQ(j["compute_peak_instruction"].get<std::string>().empty(), false);
  EXPECT_GT(j["cos_vs_ref"].get<double>(), 0.999);
  EXPECT_FALSE(j.contains("peer"));
}

TEST(BenchCommand, TableNamesBothFloors) {
  const TinyFixture& f = tiny_fixture(model::Version::n15);
  const CliResult r = run_ditmk("bench --threads 1 --runs 5 --warmup 0 --dtype bfp8_b --isa avx2 --checkpoint " +
                                f.release + " --observation " + f.observation);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("stream floor"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compute floor"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ditmk::testing
