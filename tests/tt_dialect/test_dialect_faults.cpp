// The emulator's fault classes hold for compiled dialect kernels, and each fault names the kernel
// file, the core and the processor.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "ditmk/tt/dialect/host_api.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kPage = 2048;

fs::path test_cache() { return fs::path(DITMK_BINARY_DIR) / "kernel-cache-tests"; }

struct Case {
  int fault;
  emu::FaultKind kind;
  const char* message;
};

emu::LaunchReport run_faulty_reader(int fault) {
  HostDevice device(test_cache());
  auto data = CreateBuffer(device, {8 * kPage, kPage, DataFormat::float16_b, "data"});
  auto empty = CreateBuffer(device, {8 * kPage, kPage, DataFormat::float16_b, "empty"});
  EnqueueWriteBuffer(device, *data, std::vector<std::byte>(8 * kPage, std::byte{7}));
  Program program = CreateProgram();
  const CoreRangeSet core = {{{0, 0}, {0, 0}}};
  ReaderDataMovementConfig config;
  config.defines = {{"FAULT", std::to_string(fault)}};
  const KernelHandle reader = CreateKernel(
      program, fs::path(DITMK_SOURCE_DIR) / "tests/tt_dialect/fault_kernels/faulty_reader.cpp", core, config);
  CreateCircularBuffer(program, core, {.total_size = 2 * kPage, .buffer_index = 0, .page_size = kPage});
  SetRuntimeArgs(program, reader, {0, 0}, {data->address(), empty->address()});
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
      {5, emu::FaultKind::out_of_bounds, "outside every CB and semaphore"},
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

}  // namespace
}  // namespace ditmk::tt::dialect
