// What the megakernel promises besides its numbers: repeated launches give identical bytes, every
// CB stays inside its planned size on a chip laid out exactly as planned, and each weight byte is
// streamed once per step (the kernel's trace against the arena, and against the chip's counters).
#include <gtest/gtest.h>

#include "ditmk/tt/host/emu_executor.hpp"
#include "ditmk/tt/host/emu_report.hpp"
#include "kernel_fixture.hpp"

namespace ditmk::tt::host::testing {
namespace {

const EmuResult& two_launches() {
  static const EmuResult result = [] {
    const KernelModel& m = kernel_model(model::Version::n15);
    return EmuExecutor(m.weights, kEmbodiment, {TileFormat::bf16, 2}).denoise(m.obs, m.call, m.noise, 2);
  }();
  return result;
}

TEST(KernelProtocol, TwoSteps4LaunchesAreIdentical) {
  const EmuResult& r = two_launches();
  ASSERT_EQ(r.launches.size(), 2u);
  EXPECT_TRUE(r.launches_identical);
  EXPECT_EQ(r.launches[0].report.counters.dram_read_bytes(), r.launches[1].report.counters.dram_read_bytes());
}

TEST(KernelProtocol, EveryCbStaysWithinItsPlannedSizeAndL1IsThePlans) {
  const EmuResult& r = two_launches();
  // TARGET.md's K4 totals for the bf16 arena: compute 1,214,464 B, hub with one action tile 839,680 B
  EXPECT_EQ(r.planned_l1.at("compute"), 1'214'464u);
  EXPECT_EQ(r.planned_l1.at("hub"), 839'680u);
  std::size_t used = 0;
  for (const emu::CbHighWater& cb : r.launches.back().report.counters.cb_high_water) {
    EXPECT_LE(cb.used_bytes, cb.planned_bytes) << cb.name;
    EXPECT_EQ(cb.planned_bytes, r.cb_planned.at(cb.name)) << cb.name;
    if (cb.used_bytes > 0) ++used;
  }
  EXPECT_GE(used, 25u);  // the kernel exercises the plan's CBs, not a private set
  for (const char* full : {"cb_a", "cb_part", "cb_tw", "cb_land"}) {
    bool found = false;
    for (const emu::CbHighWater& cb : r.launches.back().report.counters.cb_high_water)
      if (cb.name == full) found = found || cb.used_bytes == cb.planned_bytes;
    EXPECT_TRUE(found) << full << " is reserved whole";
  }
  // the seed's cores keep only their own residual tile, updated in place, not the tile row
  for (const emu::CbHighWater& cb : r.launches.back().report.counters.cb_high_water) {
    if (cb.name == "cb_x") {
      EXPECT_EQ(cb.used_bytes, 2048u);
    }
  }
}

TEST(KernelProtocol, EachBlockStreamsItsArenaBytesOncePerStep) {
  const EmuResult& r = two_launches();
  const EmuLaunch& launch = r.launches.back();
  uint64_t weights = 0;
  for (const BlockRow& row : block_table(r)) {
    EXPECT_GT(row.arena_bytes, 0u);
    EXPECT_EQ(row.streamed_bytes, uint64_t(row.steps) * row.arena_bytes) << "block " << row.block;
    weights += row.streamed_bytes;
  }
  EXPECT_EQ(launch.trace.tail_weight_bytes, 4 * r.arena_tail_bytes);
  weights += launch.trace.tail_weight_bytes;
  // the chip's read log holds every byte its bank counters counted: the weights plus the io reads
  // (tables, masks, hoisted K/V once per step, the Euler state)
  uint64_t logged = 0;
  for (const emu::DramRead& read : launch.report.counters.dram_reads) logged += read.bytes;
  EXPECT_EQ(logged, launch.report.counters.dram_read_bytes());
  EXPECT_EQ(logged, weights + launch.trace.io_read_bytes);
  EXPECT_GT(launch.trace.io_read_bytes, 0u);
  EXPECT_LT(launch.trace.io_read_bytes, weights / 20);
}

TEST(KernelStep, N16FourLaunchesWithHostOpsMatchTheReference) {
  const KernelModel& m = kernel_model(model::Version::n16);
  const EmuResult got =
      EmuExecutor(m.weights, kEmbodiment, {TileFormat::bf16, 2}).denoise_by_steps(m.obs, m.call, m.noise);
  ASSERT_EQ(got.launches.size(), 4u);
  const VsReference vs = compare_denoise(got.denoise, m.reference);
  EXPECT_GE(vs.actions.cos, 0.9999);
  EXPECT_LE(vs.actions.rel_l2, 1e-2);
  EXPECT_GE(vs.min_step_cos, 0.9999);
  EXPECT_LE(vs.max_step_rel_l2, 1e-2);
  std::printf("step variant n16: actions cos %.6f rel_l2 %.3g, worst step rel_l2 %.3g\n", vs.actions.cos,
              vs.actions.rel_l2, vs.max_step_rel_l2);
}

}  // namespace
}  // namespace ditmk::tt::host::testing
