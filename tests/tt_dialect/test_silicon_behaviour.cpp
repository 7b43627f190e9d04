// What silicon accepts runs on the emulated chip: checks that catch likely bugs warn, and fault only
// in a strict launch (docs/tt-dialect.md, "Silicon's behaviour").
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/host_api/host_api.hpp"
#include "support/error_of.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kPage = 2048;  // a bf16 tile
constexpr uint32_t kTiles = 4;

struct Copied {
  emu::LaunchReport report;
  std::vector<std::byte> in, out;
};

// DRAM -> CB 0 -> copy_tile/pack_tile -> CB 16 -> DRAM, on one core.
Copied copy_through(bool pack_unreserved, bool strict, bool std_headers = false) {
  HostDevice device(fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  device.emulator().set_strict(strict);
  auto src = CreateBuffer(device, {kTiles * kPage, kPage, DataFormat::float16_b, "src"});
  auto dst = CreateBuffer(device, {kTiles * kPage, kPage, DataFormat::float16_b, "dst"});
  Copied copied;
  // bf16 values between 0.01 and 2 (normal numbers: the copy through fp32 keeps them exactly)
  for (uint32_t k = 0; k < kTiles * kPage / 2; ++k) {
    copied.in.push_back(std::byte(k * 7 % 256));
    copied.in.push_back(std::byte(0x3c + k % 4));
  }
  EnqueueWriteBuffer(device, *src, copied.in);
  Program program = CreateProgram();
  const CoreRangeSet core = {{{0, 0}, {0, 0}}};
  const fs::path kernels = fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/silicon_kernels";
  const KernelHandle reader = CreateKernel(program, kernels / "read_pages.cpp", core, ReaderDataMovementConfig{});
  const KernelHandle writer = CreateKernel(program, kernels / "write_pages.cpp", core, WriterDataMovementConfig{});
  ComputeConfig compute;
  compute.compile_args = {kTiles};
  if (pack_unreserved) compute.defines.emplace_back("PACK_UNRESERVED", "1");
  if (std_headers) compute.defines.emplace_back("STD_HEADERS", "1");
  CreateKernel(program, kernels / "copy_pack.cpp", core, compute);
  CreateCircularBuffer(program, core, {.total_size = 2 * kPage, .buffer_index = 0, .page_size = kPage});
  CreateCircularBuffer(program, core, {.total_size = 2 * kPage, .buffer_index = 16, .page_size = kPage});
  SetRuntimeArgs(program, reader, {0, 0}, {src->address(), kTiles});
  SetRuntimeArgs(program, writer, {0, 0}, {dst->address(), kTiles});
  copied.report = EnqueueProgram(device, program);
  if (copied.report.clean()) EnqueueReadBuffer(device, *dst, copied.out);
  return copied;
}

std::string first_fault(const emu::LaunchReport& report) {
  return report.faults.empty() ? "" : emu::to_string(report.faults.front());
}

TEST(SiliconBehaviour, PackWithReservationRunsWithoutWarning) {
  const Copied c = copy_through(false, true);
  ASSERT_TRUE(c.report.clean()) << first_fault(c.report);
  EXPECT_TRUE(c.report.warnings.empty());
  EXPECT_EQ(c.out, c.in);
}

TEST(SiliconBehaviour, PackWithoutReservationWarnsAndRuns) {
  const Copied c = copy_through(true, false);
  ASSERT_TRUE(c.report.clean()) << first_fault(c.report);
  ASSERT_EQ(c.report.warnings.size(), 1u);  // once, not once per tile
  EXPECT_NE(c.report.warnings[0].find("copy_pack.cpp on core (0,0) TRISC: pack_tile into cb "), std::string::npos)
      << c.report.warnings[0];
  EXPECT_NE(c.report.warnings[0].find("without cb_reserve_back"), std::string::npos) << c.report.warnings[0];
  EXPECT_EQ(c.out, c.in);
}

// <algorithm> and <cstring> build with a warning naming the kernel's line, on a cached build too,
// and the kernel runs; a strict run refuses the build before anything launches.
TEST(SiliconBehaviour, HostedStandardHeadersWarnAndRun) {
  for (int run = 0; run < 2; ++run) {  // the second finds the object in the cache
    const Copied c = copy_through(false, false, true);
    ASSERT_TRUE(c.report.clean()) << first_fault(c.report);
    ASSERT_EQ(c.report.warnings.size(), 2u) << run;
    EXPECT_NE(c.report.warnings[0].find("copy_pack.cpp:6: includes <algorithm>, a hosted standard header"),
              std::string::npos)
        << c.report.warnings[0];
    EXPECT_NE(c.report.warnings[1].find("copy_pack.cpp:7: includes <cstring>, a hosted standard header"),
              std::string::npos)
        << c.report.warnings[1];
    EXPECT_EQ(c.out, c.in);
  }
  const std::string error = testing::error_of([] { copy_through(false, true, true); });
  EXPECT_NE(error.find("includes <algorithm>, a hosted standard header"), std::string::npos) << error;
  EXPECT_NE(error.find("refused under --strict"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(SiliconBehaviour, PackWithoutReservationFaultsWhenStrict) {
  const Copied c = copy_through(true, true);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_EQ(c.report.faults[0].kind, emu::FaultKind::cb_overflow) << first_fault(c.report);
  EXPECT_NE(first_fault(c.report).find("reservation holds 0 pages (strict)"), std::string::npos) << first_fault(c.report);
}

// tt-metal's shared CB: c_16 and c_24 over one L1 range, each with its own pointers; what one
// index's producer filled, the other reads.
TEST(SiliconBehaviour, SharedCbIndicesSeeOneL1) {
  HostDevice device(fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  auto dst = CreateBuffer(device, {kPage, kPage, DataFormat::float16_b, "dst"});
  Program program = CreateProgram();
  const CoreRangeSet core = {{{0, 0}, {0, 0}}};
  const KernelHandle writer = CreateKernel(
      program, fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/silicon_kernels/shared_cb.cpp", core, WriterDataMovementConfig{});
  CircularBufferConfig shared{.total_size = 2 * kPage, .buffer_index = 16, .page_size = kPage};
  shared.shared_indices = {{24, DataFormat::float16_b, kPage}};
  CreateCircularBuffer(program, core, shared);
  SetRuntimeArgs(program, writer, {0, 0}, {dst->address()});
  const emu::LaunchReport report = EnqueueProgram(device, program);
  ASSERT_TRUE(report.clean()) << first_fault(report);
  std::vector<std::byte> out;
  EnqueueReadBuffer(device, *dst, out);
  ASSERT_EQ(out.size(), kPage);
  for (uint32_t i = 0; i < kPage / 4; ++i) {
    uint32_t word = 0;
    std::memcpy(&word, out.data() + 4 * i, 4);
    ASSERT_EQ(word, 0x5eed0000 + i) << "word " << i;
  }
}

// Two CBs that overlap without being one shared CB are still refused.
TEST(SiliconBehaviour, OverlappingCbsThatAreNotSharedAreRefused) {
  HostDevice device(fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  Program program = CreateProgram();
  const CoreRangeSet core = {{{0, 0}, {0, 0}}};
  CreateKernel(program, fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/silicon_kernels/shared_cb.cpp", core,
               WriterDataMovementConfig{});
  CircularBufferConfig a{.total_size = 2 * kPage, .buffer_index = 16, .page_size = kPage, .placed_address = 0x20000};
  CircularBufferConfig b{.total_size = 2 * kPage, .buffer_index = 24, .page_size = kPage, .placed_address = 0x20000};
  CreateCircularBuffer(program, core, a);
  CreateCircularBuffer(program, core, b);
  try {
    EnqueueProgram(device, program);
    FAIL() << "overlapping CBs were accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("overlaps"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ditmk::tt::dialect
