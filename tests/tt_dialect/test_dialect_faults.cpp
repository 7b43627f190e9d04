// The emulator's fault classes hold for compiled dialect kernels, and each fault names the kernel
// file, the core and the processor.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/tt/host_api/host_api.hpp"
#include "ditmk/tt/emu/kernel_guard.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kPage = 2048;

fs::path test_cache() { return fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests"; }

struct Case {
  int fault;
  emu::FaultKind kind;
  const char* message;
};

emu::LaunchReport run_faulty_reader(int fault, double watchdog_seconds = emu::kDefaultWatchdogSeconds) {
  HostDevice device(test_cache());
  device.emulator().set_watchdog(watchdog_seconds);
  auto data = CreateBuffer(device, {8 * kPage, kPage, DataFormat::float16_b, "data"});
  auto empty = CreateBuffer(device, {8 * kPage, kPage, DataFormat::float16_b, "empty"});
  EnqueueWriteBuffer(device, *data, std::vector<std::byte>(8 * kPage, std::byte{7}));
  Program program = CreateProgram();
  const CoreRangeSet core = {{{0, 0}, {0, 0}}};
  ReaderDataMovementConfig config;
  config.defines = {{"FAULT", std::to_string(fault)}};
  const KernelHandle reader = CreateKernel(
      program, fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/fault_kernels/faulty_reader.cpp", core, config);
  CreateCircularBuffer(program, core, {.total_size = 2 * kPage, .buffer_index = 0, .page_size = kPage});
  SetRuntimeArgs(program, reader, {0, 0}, {data->address(), empty->address(), 0});
  return EnqueueProgram(device, program);
}

TEST(DialectFaults, CleanProgramRunsClean) {
  const emu::LaunchReport report = run_faulty_reader(0);
  EXPECT_TRUE(report.clean()) << (report.faults.empty() ? "" : emu::to_string(report.faults.front()));
}

TEST(DialectFaults, EachFaultNamesKernelCoreAndProcessor) {
  const Case cases[] = {
      {1, emu::FaultKind::cb_overflow, "cb_reserve_back"},
      {2, emu::FaultKind::unwritten_read, "never written"},
      {3, emu::FaultKind::deadlock, "cb_wait_front"},
      {4, emu::FaultKind::out_of_bounds, "noc_async_read"},
      {5, emu::FaultKind::out_of_bounds, "outside every CB, semaphore and L1 buffer"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fault);
    const emu::LaunchReport report = run_faulty_reader(c.fault);
    ASSERT_EQ(report.faults.size(), 1u);
    const emu::Fault& fault = report.faults.front();
    EXPECT_EQ(fault.kind, c.kind) << emu::to_string(fault);
    const std::string text = emu::to_string(fault);
    EXPECT_NE(text.find(c.message), std::string::npos) << text;
    EXPECT_NE(text.find("faulty_reader.cpp on core (0,0) NCRISC"), std::string::npos) << text;
  }
}

// A wild pointer, a division by zero and a spin each end the launch with one fault naming the kernel,
// core, processor, what happened and the last API call; the process lives on and launches again.
TEST(DialectFaults, SignalsAndSpinsEndTheLaunchNotTheProcess) {
  if (!emu::KernelGuard::active()) GTEST_SKIP() << "kernel guard off under AddressSanitizer (ASan owns SIGSEGV)";
  struct Bad {
    int fault;
    emu::FaultKind kind;
    std::vector<const char*> words;
  };
  const Bad cases[] = {
      {6, emu::FaultKind::kernel_signal,
       {"SIGSEGV (address not mapped) at address 0xdead0000", "after its last API call cb_reserve_back"}},
      {7, emu::FaultKind::no_progress,
       {"without a device API call or a wait (watchdog limit 0.5 s)", "after its last API call cb_reserve_back"}},
      {8, emu::FaultKind::kernel_signal, {"SIGFPE (integer division by zero) at instruction 0x", "after its last API call arg"}},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.fault);
    const emu::LaunchReport report = run_faulty_reader(c.fault, 0.5);
    ASSERT_EQ(report.faults.size(), 1u);
    const emu::Fault& fault = report.faults.front();
    EXPECT_EQ(fault.kind, c.kind) << emu::to_string(fault);
    const std::string text = emu::to_string(fault);
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
    EXPECT_NE(text.find("faulty_reader.cpp on core (0,0) NCRISC"), std::string::npos) << text;
    for (const char* word : c.words) EXPECT_NE(text.find(word), std::string::npos) << text;
    const emu::LaunchReport again = run_faulty_reader(0);
    EXPECT_TRUE(again.clean()) << (again.faults.empty() ? "" : emu::to_string(again.faults.front()));
  }
}

}  // namespace
}  // namespace ditmk::tt::dialect

namespace ditmk::tt::dialect {
namespace {

// A CB nobody on its core reserves or pushes is plain L1 its kernel fills through pointers: a NoC
// read of it from its own core counts the bytes as written, as a scratchpad's are; the row arrives
// intact.
emu::LaunchReport run_raw_cb_copy(std::vector<std::byte>& out_bytes) {
  HostDevice device(test_cache());
  auto out = CreateBuffer(device, {64, 64, DataFormat::float16_b, "out"});
  Program program = CreateProgram();
  const CoreRangeSet core = {{{1, 1}, {1, 1}}};
  const KernelHandle k = CreateKernel(
      program, fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/compile_kernels/raw_cb_copy.cpp", core,
      WriterDataMovementConfig{});
  CreateCircularBuffer(program, core, {.total_size = 64, .buffer_index = 0, .page_size = 64});
  CreateCircularBuffer(program, core, {.total_size = 64, .buffer_index = 1, .page_size = 64});
  SetRuntimeArgs(program, k, {1, 1}, {out->address()});
  const emu::LaunchReport report = EnqueueProgram(device, program);
  if (report.clean()) EnqueueReadBuffer(device, *out, out_bytes);
  return report;
}

TEST(DialectFaults, UntouchedCbBuiltThroughPointersIsReadableFromItsCore) {
  std::vector<std::byte> bytes;
  const emu::LaunchReport report = run_raw_cb_copy(bytes);
  ASSERT_TRUE(report.clean()) << emu::to_string(report.faults.front());
  ASSERT_EQ(bytes.size(), 64u);
  for (uint32_t i = 0; i < 16; ++i) {
    uint32_t word = 0;
    std::memcpy(&word, bytes.data() + 4 * i, 4);
    EXPECT_EQ(word, 0x3F803F80u + i) << i;
  }
}

}  // namespace
}  // namespace ditmk::tt::dialect
