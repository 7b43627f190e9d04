// The timing model's bookkeeping (not its predicted values): every processor's spans are ordered
// and never overlap, each wait ends at what released it, the critical path accounts for the whole
// interval, repeated launches give identical times, and the Chrome trace is valid.
#include <gtest/gtest.h>

#include <sstream>

#include "ditmk/tt/emu/chrome_trace.hpp"
#include "small_program.hpp"
#include "support/trace_check.hpp"

namespace ditmk::tt::emu {
namespace {

constexpr uint32_t kPages = 4;

// Core 0: NCRISC streams 4 DRAM tiles into cb 0, TRISC multiplies each and packs one tile into
// cb 1, BRISC writes it to core 1 and counts it there; then a semaphore multicast releases core 1.
struct TimedRun {
  Device device;
  uint32_t tile_address = 0;

  TimedRun() {
    const DramBuffer& buffer = device.allocate_interleaved("x", TileFormat::bf16, kPages * 2048, 2048);
    device.write_buffer(buffer, testing::random_bytes(5, kPages * 2048));
    const uint32_t base = buffer.address;
    testing::SmallProgram p(2, [this, base] {
      const bool core0 = my_core().x == 0;
      const uint32_t sem_data = get_semaphore(0), sem_go = get_semaphore(1);
      switch (current_processor()) {
        case Processor::ncrisc:
          if (!core0) {
            noc_semaphore_wait(sem_go, 5);
            return;
          }
          for (uint32_t page = 0; page < kPages; ++page) {
            cb_reserve_back(0, 1);
            noc_async_read(InterleavedAddrGen{base, 2048}.get_noc_addr(page), get_write_ptr(0), 2048);
            noc_async_read_barrier();
            cb_push_back(0, 1);
          }
          return;
        case Processor::trisc: {
          if (!core0) return;
          const DeviceZone zone("multiply");
          tile_regs_acquire();
          for (uint32_t page = 0; page < kPages; ++page) {
            cb_wait_front(0, 1);
            matmul_tiles(0, 0, 0, 0, 0);
            cb_pop_front(0, 1);
          }
          tile_regs_commit();
          tile_regs_wait();
          cb_reserve_back(1, 1);
          pack_tile(0, 1);
          cb_push_back(1, 1);
          tile_regs_release();
          return;
        }
        case Processor::brisc:
          if (!core0) {
            noc_semaphore_wait(sem_data, 1);
            return;
          }
          cb_wait_front(1, 1);
          noc_async_write(get_read_ptr(1), get_noc_addr(1, 0, tile_address), 2048);
          noc_async_write_barrier();
          noc_semaphore_inc(get_noc_addr(1, 0, sem_data), 1);
          cb_pop_front(1, 1);
          noc_semaphore_set(sem_go, 5);
          noc_semaphore_set_multicast(sem_go, get_noc_multicast_addr(0, 0, 1, 0, sem_go), 1);
          return;
      }
    });
    p.cb("cb_in", 0, 2);
    tile_address = p.cb("cb_out", 1, 1, TileFormat::fp32);
    p.semaphore("sem_data", 0);
    p.semaphore("sem_go", 1);
    device.load(p.program);
  }
};

uint32_t proc_of(const TimingResult& t, uint32_t core, Processor processor) {
  for (uint32_t i = 0; i < t.processors.size(); ++i)
    if (t.processors[i].core == core && t.processors[i].processor == processor) return i;
  ADD_FAILURE() << "no processor";
  return 0;
}

const Span& first_wait(const TimingResult& t, uint32_t proc, std::string_view label) {
  for (const Span& s : t.processors[proc].spans)
    if (s.kind == SpanKind::wait && t.labels[s.label] == label) return s;
  throw std::runtime_error("no such wait");
}

TEST(Timing, IsOffUnlessAsked) {
  TimedRun run;
  const LaunchReport report = run.device.launch();
  ASSERT_TRUE(report.clean()) << to_string(report.faults.at(0));
  EXPECT_EQ(report.timing, nullptr);
}

TEST(Timing, SpansAreOrderedAndWaitsEndAtWhatReleasedThem) {
  TimedRun run;
  run.device.set_timing(true);
  const LaunchReport report = run.device.launch();
  ASSERT_TRUE(report.clean()) << to_string(report.faults.at(0));
  ASSERT_NE(report.timing, nullptr);
  const TimingResult& t = *report.timing;
  ASSERT_EQ(t.processors.size(), 6u);
  for (const ProcessorTimeline& p : t.processors) {
    for (std::size_t i = 0; i < p.spans.size(); ++i) {
      EXPECT_LT(p.spans[i].start, p.spans[i].end);
      if (i > 0) {
        EXPECT_LE(p.spans[i - 1].end, p.spans[i].start);
      }
    }
    if (!p.spans.empty()) {
      EXPECT_LE(p.spans.back().end, p.end);
    }
    EXPECT_LE(p.end, t.end);
  }
  // TRISC's first wait for a tile ends at the NCRISC push that filled it, after the DRAM read
  const uint32_t ncrisc = proc_of(t, 0, Processor::ncrisc), trisc = proc_of(t, 0, Processor::trisc);
  const Span& tile = first_wait(t, trisc, "cb_wait_front cb_in");
  EXPECT_EQ(tile.cause.proc, int32_t(ncrisc));
  EXPECT_FALSE(tile.cause.is_transfer);
  EXPECT_EQ(tile.cause.time, tile.end);
  const Span& read = first_wait(t, ncrisc, "read barrier");
  EXPECT_TRUE(read.cause.is_transfer);
  EXPECT_EQ(read.cause.transfer, PathPart::streaming);
  EXPECT_LE(read.end, tile.end);
  // core 1 is released by a semaphore that a transfer from core 0's BRISC carried
  const uint32_t brisc0 = proc_of(t, 0, Processor::brisc);
  const Span& data = first_wait(t, proc_of(t, 1, Processor::brisc), "wait sem_data");
  EXPECT_TRUE(data.cause.is_transfer);
  EXPECT_EQ(data.cause.proc, int32_t(brisc0));
  EXPECT_LT(data.cause.time, data.end);
  const Span& go = first_wait(t, proc_of(t, 1, Processor::ncrisc), "wait sem_go");
  EXPECT_EQ(go.cause.proc, int32_t(brisc0));
  EXPECT_EQ(t.transfers.size(), kPages + 3);  // the reads, the tile, the increment, the multicast
  // the critical path from the last return accounts for the whole launch
  uint32_t last = 0;
  for (uint32_t i = 0; i < t.processors.size(); ++i)
    if (t.processors[i].end > t.processors[last].end) last = i;
  const PathBreakdown path = t.critical_path(last, t.end, 0);
  double total = 0;
  for (double s : path.seconds) total += s;
  EXPECT_NEAR(total, t.seconds(t.end), 1e-12);
  EXPECT_GT(path.seconds[int(PathPart::streaming)], 0.0);
  EXPECT_GT(path.seconds[int(PathPart::fpu)], 0.0);
  ASSERT_EQ(t.zones.size(), 1u);
  EXPECT_EQ(t.zone_names[t.zones[0].name], "multiply");
  EXPECT_GT(t.busy(trisc, t.zones[0].start, t.zones[0].end), 0.0);
}

TEST(Timing, TwoLaunchesGiveTheSameTimes) {
  TimedRun run;
  run.device.set_timing(true);
  const LaunchReport a = run.device.launch(), b = run.device.launch();
  ASSERT_TRUE(a.timing && b.timing);
  EXPECT_EQ(a.timing->end, b.timing->end);
  ASSERT_EQ(a.timing->processors.size(), b.timing->processors.size());
  for (std::size_t p = 0; p < a.timing->processors.size(); ++p) {
    const auto& sa = a.timing->processors[p].spans;
    const auto& sb = b.timing->processors[p].spans;
    ASSERT_EQ(sa.size(), sb.size());
    for (std::size_t i = 0; i < sa.size(); ++i) {
      EXPECT_EQ(sa[i].start, sb[i].start);
      EXPECT_EQ(sa[i].end, sb[i].end);
    }
  }
}

TEST(Timing, ChromeTraceIsValid) {
  TimedRun run;
  run.device.set_timing(true);
  const LaunchReport report = run.device.launch();
  ASSERT_TRUE(report.timing);
  std::ostringstream out;
  write_chrome_trace(*report.timing, out);
  const ditmk::testing::TraceCounts counts = ditmk::testing::check_trace(out.str());
  EXPECT_GT(counts.spans, 6u);
  EXPECT_EQ(counts.zones, 1u);
  EXPECT_EQ(counts.transfers, report.timing->transfers.size());
}

}  // namespace
}  // namespace ditmk::tt::emu
