// The acceptance program: one DiT linear layer on the emulated chip against the host computation.
#include <gtest/gtest.h>

#include <cmath>

#include "ditmk/tt/emu/linear_program.hpp"

namespace ditmk::tt::emu {
namespace {

void expect_clean_linear(TileFormat format, uint64_t seed) {
  LinearOptions options;
  options.weight_format = format;
  options.seed = seed;
  const LinearRun run = run_linear(options);
  ASSERT_TRUE(run.clean) << to_string(run.launches.back().faults.at(0));
  ASSERT_EQ(run.launches.size(), 2u);
  EXPECT_GT(run.max_abs_host, 1.0);
  // same products in the same order on both sides: at most a bf16 rounding step apart
  EXPECT_LE(run.max_abs_err_vs_host, run.max_abs_host * std::ldexp(1.0, -8));
  EXPECT_TRUE(run.launches_identical);
  const uint64_t weight_bytes = uint64_t(1536) * 6144 / 1024 * tile_bytes(format);
  EXPECT_EQ(run.expected_dram_bytes, weight_bytes);
  for (const LaunchReport& report : run.launches) {
    EXPECT_EQ(report.counters.dram_read_bytes(), weight_bytes);
    EXPECT_EQ(report.counters.dram_write_bytes(), 0u);
    for (const BankTraffic& bank : report.counters.dram) EXPECT_EQ(bank.read_bytes, weight_bytes / kNumDramBanks);
    // 96 x 4 gather tiles on NoC 0 and one 768 KiB multicast on NoC 1
    const uint64_t result_bytes = 2 * 192 * 2048;
    const CoreTraffic& hub = report.counters.cores[104];
    EXPECT_EQ(hub.received_bytes[0], result_bytes + 96 * 4);  // gathered tiles + semaphore incs
    EXPECT_EQ(hub.sent_bytes[1], result_bytes + 4);           // the multicast + its semaphore
    for (uint32_t core = 0; core < kNumCores; ++core) {
      if (core == 104) continue;
      EXPECT_EQ(report.counters.cores[core].received_bytes[1], result_bytes + 4) << core;
    }
    EXPECT_EQ(report.counters.noc[0].bytes, weight_bytes + result_bytes + 96 * 4);
    for (const CbHighWater& cb : report.counters.cb_high_water) {
      EXPECT_LE(cb.used_bytes, cb.planned_bytes) << cb.name;
      EXPECT_GT(cb.used_bytes, 0u) << cb.name;
    }
    const double rate = format == TileFormat::bfp8_b ? kDramBfp8BytesPerSecond : kDramBf16BytesPerSecond;
    EXPECT_NEAR(report.bound.dram_seconds, double(weight_bytes) / rate, 1e-9);
    EXPECT_GE(report.bound.seconds, report.bound.dram_seconds);
  }
}

TEST(LinearProgram, Bf16MatchesHostAndRepeats) { expect_clean_linear(TileFormat::bf16, 11); }

TEST(LinearProgram, Bfp8MatchesHostAndRepeats) { expect_clean_linear(TileFormat::bfp8_b, 12); }

TEST(LinearProgram, ShrunkWeightRingFaultsInsteadOfWrongData) {
  // half a K-block, then one and a half: neither can hold the 16-page window a K-block needs
  for (uint32_t pages : {8u, 24u}) {
    LinearOptions options;
    options.cb_w_pages = pages;
    options.seed = 13;
    const LinearRun run = run_linear(options);
    ASSERT_FALSE(run.clean) << pages;
    const Fault& fault = run.launches.back().faults.at(0);
    EXPECT_TRUE(fault.kind == FaultKind::cb_overflow || fault.kind == FaultKind::deadlock) << to_string(fault);
    EXPECT_NE(fault.message.find("cb_w"), std::string::npos) << to_string(fault);
    EXPECT_TRUE(std::isnan(run.max_abs_err_vs_host));
  }
}

}  // namespace
}  // namespace ditmk::tt::emu
