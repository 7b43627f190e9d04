// DPRINT lines carry the kernel, core and processor; DeviceZoneScopedN is a zone of the timing model.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/tt/device_abi/device_abi.hpp"
#include "ditmk/tt/host_api/host_api.hpp"
#include "ditmk/tt/emu/timing_model.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

// tt-metal's page printers print a line per page, numbered from `start`, and the CB's interface.
TEST(DialectDebug, DprintPagesPrintsOneLinePerPage) {
  std::vector<std::string> lines;
  set_dprint_sink([&](std::string_view, std::string_view line) { lines.push_back(std::string(line)); });
  HostDevice device(fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  Program program = CreateProgram();
  const CoreRangeSet core = {{{0, 0}, {0, 0}}};
  CreateKernel(program, fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/compile_kernels/dprint_pages.cpp", core,
               WriterDataMovementConfig{});
  CreateCircularBuffer(program, core, {.total_size = 64, .buffer_index = 0, .page_size = 32});
  const emu::LaunchReport report = EnqueueProgram(device, program);
  set_dprint_sink(nullptr);
  ASSERT_TRUE(report.clean()) << emu::to_string(report.faults.front());
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[0].find("0: 1 2 "), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("1: 1 -2 "), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("0: 0x01 0x00 "), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find("cb_id 0: { size: 64, limit: "), std::string::npos) << lines[3];
  EXPECT_NE(lines[3].find("page_size: 32, num_pages: 2, "), std::string::npos) << lines[3];
}

TEST(DialectDebug, DprintNamesWhereAndZoneIsTimed) {
  std::vector<std::string> lines;
  set_dprint_sink([&](std::string_view where, std::string_view line) {
    lines.push_back(std::string(where) + ": " + std::string(line));
  });
  HostDevice device(fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  device.emulator().set_timing(true);
  Program program = CreateProgram();
  const CoreRangeSet cores = {{{2, 1}, {3, 1}}};
  const KernelHandle k = CreateKernel(
      program, fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/compile_kernels/dprint_zone.cpp", cores,
      WriterDataMovementConfig{});
  SetRuntimeArgs(program, k, {2, 1}, {7});
  SetRuntimeArgs(program, k, {3, 1}, {9});
  const emu::LaunchReport report = EnqueueProgram(device, program);
  set_dprint_sink(nullptr);
  ASSERT_TRUE(report.clean()) << emu::to_string(report.faults.front());
  std::sort(lines.begin(), lines.end());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("dprint_zone.cpp on core (2,1) BRISC: tiles 7 at x 2"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("dprint_zone.cpp on core (3,1) BRISC: tiles 9 at x 3"), std::string::npos) << lines[1];
  ASSERT_NE(report.timing, nullptr);
  const auto& zones = report.timing->zone_names;
  EXPECT_NE(std::find(zones.begin(), zones.end(), "greeting"), zones.end());
  // each core's zone carries its DeviceTimestampedData record
  std::vector<uint64_t> tags;
  for (const emu::Zone& z : report.timing->zones) {
    if (zones[z.name] != "greeting") continue;
    EXPECT_TRUE(z.tagged);
    EXPECT_EQ(zones[z.tag_name], "5");  // the older numeric id, as its text
    tags.push_back(z.tag);
  }
  std::sort(tags.begin(), tags.end());
  EXPECT_EQ(tags, (std::vector<uint64_t>{uint64_t(7) << 32 | 1, uint64_t(9) << 32 | 1}));
  // the inner zone carries its named record, the outer one keeps its own
  std::vector<uint64_t> inner;
  for (const emu::Zone& z : report.timing->zones) {
    if (zones[z.name] != "inner") continue;
    EXPECT_TRUE(z.tagged);
    EXPECT_EQ(zones[z.tag_name], "tiles");
    inner.push_back(z.tag);
  }
  std::sort(inner.begin(), inner.end());
  EXPECT_EQ(inner, (std::vector<uint64_t>{7, 9}));
}

// The emulator cannot see a kernel's pointer stores; the bytes it declares cost the RISC's L1 rate.
TEST(DialectDebug, RiscL1BytesAreTimedAtTheRiscsL1Rate) {
  HostDevice device(fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  device.emulator().set_timing(true);
  Program program = CreateProgram();
  const KernelHandle k = CreateKernel(
      program, fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/compile_kernels/risc_stores.cpp", {{{2, 1}, {3, 1}}},
      WriterDataMovementConfig{});
  SetRuntimeArgs(program, k, {2, 1}, {0});
  SetRuntimeArgs(program, k, {3, 1}, {8192});
  const emu::LaunchReport report = EnqueueProgram(device, program);
  ASSERT_TRUE(report.clean()) << emu::to_string(report.faults.front());
  ASSERT_NE(report.timing, nullptr);
  std::vector<double> cycles;
  for (const emu::Zone& z : report.timing->zones) cycles.push_back(z.end - z.start);
  ASSERT_EQ(cycles.size(), 2u);
  std::sort(cycles.begin(), cycles.end());
  EXPECT_EQ(cycles[0], 0.0);
  EXPECT_DOUBLE_EQ(cycles[1], 8192.0 / emu::blackhole_timing().risc_l1_bytes_per_cycle);
}

}  // namespace
}  // namespace ditmk::tt::dialect
