// The timing model on the megakernel: the same predicted times whatever the host's thread count,
// the report's fields and their bookkeeping (a block's critical path adds up to its time), and a
// valid Chrome trace of the launch; each block kind's predicted time within 1% of the one recorded
// before the kernel moved into tt-metal's dialect (docs/timing.md validates the values themselves).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>

#include "ditmk/tt/emu/chrome_trace.hpp"
#include "ditmk/tt/host/emu_executor.hpp"
#include "ditmk/tt/host/timing_report.hpp"
#include "kernel_fixture.hpp"
#include "recorded_results.hpp"
#include "support/trace_check.hpp"

namespace ditmk::tt::host::testing {
namespace {

EmuResult timed_blocks(int threads, Protocol protocol = Protocol::seed, model::Version version = model::Version::n15) {
  const KernelModel& m = kernel_model(version);
  Matrix<double> h(m.weights.config.m_rows(), m.weights.config.dims.width);
  for (std::size_t i = 0; i < h.data.size(); ++i) h.data[i] = double(i % 7) - 3.0;
  EmuOptions options{TileFormat::bfp8_b, threads, protocol};
  options.timing = true;
  return EmuExecutor(m.weights, kEmbodiment, options).blocks(m.obs, m.call, h, 1, m.weights.config.n_blocks);
}

TEST(KernelTiming, SamePredictedTimesOnAnyThreadCount) {
  const TimingSummary one = summarize_timing(timed_blocks(1));
  const TimingSummary two = summarize_timing(timed_blocks(2));
  ASSERT_EQ(one.blocks.size(), 2u);
  ASSERT_EQ(two.blocks.size(), 2u);
  for (std::size_t b = 0; b < 2; ++b) {
    EXPECT_EQ(one.blocks[b].seconds, two.blocks[b].seconds) << b;
    for (int p = 0; p < emu::kPathParts; ++p) EXPECT_EQ(one.blocks[b].breakdown.seconds[p], two.blocks[b].breakdown.seconds[p]);
  }
  EXPECT_EQ(one.launch_seconds, two.launch_seconds);
}

// Every block kind (N1.5: cross_all, self; N1.6: cross_text, self, cross_image) under both protocols.
TEST(KernelTiming, PredictedBlockTimesAreTheRecordedOnes) {
  for (model::Version version : {model::Version::n15, model::Version::n16}) {
    for (Protocol protocol : {Protocol::seed, Protocol::onehub}) {
      for (const BlockTiming& b : summarize_timing(timed_blocks(2, protocol, version)).blocks) {
        const double us = b.seconds * 1e6;
        const std::string what = fmt::format("{} {} block {} ({})", model::version_name(version), protocol_name(protocol),
                                             b.index, b.kind);
        const std::optional<double> recorded = recorded_block_us(version, protocol, b.kind);
        if (!recorded) {
          ADD_FAILURE() << what << ": no recorded time; this run's is " << fmt::format("{:.6f}", us);
          continue;
        }
        EXPECT_NEAR(us, *recorded, 0.01 * *recorded) << what << fmt::format(": {:.6f} us", us);
      }
    }
  }
}

TEST(KernelTiming, ReportFieldsAndBookkeeping) {
  const EmuResult r = timed_blocks(2, Protocol::onehub);
  const nlohmann::json t = to_json(summarize_timing(r));
  EXPECT_EQ(t.at("protocol"), "onehub");
  const nlohmann::json& blocks = t.at("blocks");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].at("kind"), "cross_all");
  EXPECT_EQ(blocks[1].at("kind"), "self");
  double total = 0;
  for (const nlohmann::json& b : blocks) {
    EXPECT_EQ(b.at("index"), &b - &blocks[0]);
    const double us = b.at("us");
    EXPECT_GT(us, 0.0);
    EXPECT_GT(b.at("dram_lower_bound_us").get<double>(), 0.0);
    double parts = 0;
    for (const auto& [name, value] : b.at("breakdown").items()) parts += value.get<double>();
    EXPECT_NEAR(parts, us, 1e-6 * us) << "the critical path accounts for the block";
    total += us;
  }
  EXPECT_NEAR(t.at("us_per_block").get<double>(), total / 2, 1e-9);
  EXPECT_FALSE(t.contains("us_per_step"));  // the block variant has no steps
  EXPECT_LE(total, t.at("launch_us").get<double>() + 1e-9);
  EXPECT_EQ(t.at("cores").size(), 110u);
  for (const char* phase : {"ln1", "attn_out", "ff2", "residual"}) EXPECT_TRUE(t.at("rounds").contains(phase)) << phase;
}

TEST(KernelTiming, Steps4HasPerStepAndPerDenoiseTimes) {
  const KernelModel& m = kernel_model(model::Version::n15);
  EmuOptions options{TileFormat::bf16, 2};
  options.timing = true;
  const TimingSummary s = summarize_timing(EmuExecutor(m.weights, kEmbodiment, options).denoise(m.obs, m.call, m.noise));
  EXPECT_EQ(s.blocks.size(), 4u * 2u);
  ASSERT_TRUE(s.seconds_per_step && s.seconds_per_denoise);
  EXPECT_NEAR(*s.seconds_per_denoise, 4 * *s.seconds_per_step, 1e-12);
  EXPECT_GT(*s.seconds_per_step, 2 * s.seconds_per_block);  // two blocks, the encoder and the head
}

TEST(KernelTiming, TraceOfABlockLaunchIsValid) {
  const EmuResult r = timed_blocks(2);
  std::ostringstream out;
  emu::write_chrome_trace(*r.launches.front().report.timing, out);
  const ditmk::testing::TraceCounts counts = ditmk::testing::check_trace(out.str());
  EXPECT_GT(counts.spans, 10000u);
  EXPECT_GT(counts.zones, 1000u);
  EXPECT_GT(counts.transfers, 1000u);
  EXPECT_GE(counts.tracks, 3u * 96u);
}

}  // namespace
}  // namespace ditmk::tt::host::testing
