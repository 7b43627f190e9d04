// Tensors in L1, as tt-metal hosts make them with L1_MEMORY_CONFIG (interleaved over the L1 banks of
// the worker cores) or a sharded memory config (shards on named cores), reached by kernels with the
// calls they use on silicon (docs/tt-dialect.md, "L1 buffers and integer tiles").
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/program/descriptor_json.hpp"
#include "ditmk/tt/host_api/host_api.hpp"
#include "ditmk/tt/emu/l1_buffers.hpp"
#include "ditmk/tt/plan/limits.hpp"
#include "tt_dialect/descriptor_in_dir.hpp"

namespace ditmk::testing {
namespace {

using nlohmann::ordered_json;
using tt::dialect::DescriptorRun;

constexpr uint32_t kPage = 2048;  // one bf16 tile

// A [rows, cols] matrix of small integers, exact in bfloat16.
Tensor matrix(int64_t rows, int64_t cols) {
  Tensor t(DType::F32, {rows, cols});
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float((i * 7) % 256) - 128.0f;
  return t;
}

bool same_values(const Tensor& a, const Tensor& b) {
  return a.numel() == b.numel() && std::memcmp(a.bytes(), b.bytes(), a.nbytes()) == 0;
}

ordered_json tensor(const std::string& name, const std::string& memory, int64_t rows, int64_t cols) {
  return {{"name", name}, {"memory", memory}, {"layout", "tile"}, {"data_format", "bfloat16"}, {"shape", {rows, cols}}};
}

ordered_json one_core() { return ordered_json::array({{{"start", {0, 0}}, {"end", {0, 0}}}}); }

// copy_pages.cpp on core (0,0): pages [first, first + pages) of `src` to `dst`, through CB 0.
ordered_json copy_program(ordered_json src, ordered_json dst, uint32_t pages, uint32_t first,
                          const std::string& define = "") {
  ordered_json kernel = {
      {"kernel_source", l1_kernel("copy_pages.cpp")},
      {"core_ranges", one_core()},
      {"config", {{"type", "reader"}}},
      {"compile_time_args", {{{"tensor_accessor_args", src["name"]}}, {{"tensor_accessor_args", dst["name"]}}}},
      {"runtime_args",
       {{{"core", {0, 0}}, {"args", {{{"address_of", src["name"]}}, {{"address_of", dst["name"]}}, pages, first}}}}}};
  if (!define.empty()) kernel["defines"] = {{define, "1"}};
  return {{"name", "l1_copy"},
          {"tensors", {src, dst}},
          {"kernels", {kernel}},
          {"cbs",
           {{{"total_size", 2 * kPage},
             {"core_ranges", one_core()},
             {"format_descriptors", {{{"buffer_index", 0}, {"data_format", "bfloat16"}, {"page_size", kPage}}}}}}}};
}

// 128 tiles: banks 0..17 hold two pages each, the others one.
constexpr int64_t kRows = 256, kCols = 512;
constexpr uint32_t kPages = kRows * kCols / 1024;

void expect_copied(const std::string& define, bool timing = false) {
  TempDir dir;
  ordered_json src = tensor("src", "l1_interleaved", kRows, kCols), dst = tensor("dst", "dram_interleaved", kRows, kCols);
  src["input"] = "src.npy";
  dst["output"] = "dst.npy";
  const Tensor in = matrix(kRows, kCols);
  const DescriptorRun run = run_in(dir, copy_program(src, dst, kPages, 0, define), "src.npy", in, timing);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  EXPECT_TRUE(same_values(io::read_npy(dir / "dst.npy"), in));
  if (timing) {
    ASSERT_NE(run.report.timing, nullptr);
    // the reader's NoC: 128 page reads from the L1 banks and 128 page writes to DRAM
    EXPECT_EQ(run.report.counters.noc[0].transfers, 2u * kPages);
  }
}

TEST(L1Buffers, InterleavedInputReadThroughInterleavedAddrGen) { expect_copied("L1_ADDRGEN"); }

TEST(L1Buffers, InterleavedCopyIsTimed) { expect_copied("L1_ADDRGEN", true); }

TEST(L1Buffers, InterleavedInputReadThroughBankIds) { expect_copied("L1_BANK_ID"); }

TEST(L1Buffers, InterleavedInputReadThroughTensorAccessor) { expect_copied(""); }

TEST(L1Buffers, InterleavedOutputWrittenThroughTensorAccessor) {
  TempDir dir;
  ordered_json src = tensor("src", "dram_interleaved", kRows, kCols), dst = tensor("dst", "l1_interleaved", kRows, kCols);
  src["input"] = "src.npy";
  dst["output"] = "dst.npy";
  const Tensor in = matrix(kRows, kCols);
  const DescriptorRun run = run_in(dir, copy_program(src, dst, kPages, 0), "src.npy", in);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  EXPECT_TRUE(same_values(io::read_npy(dir / "dst.npy"), in));
}

TEST(L1Buffers, ReadPastTheBufferInItsBankIsOneLineFault) {
  TempDir dir;
  ordered_json src = tensor("src", "l1_interleaved", kRows, kCols), dst = tensor("dst", "dram_interleaved", kRows, kCols);
  src["input"] = "src.npy";
  // page 220 would be bank 0's third page; the tensor gives each bank two at most
  const DescriptorRun run = run_in(dir, copy_program(src, dst, 1, 220, "L1_ADDRGEN"), "src.npy", matrix(kRows, kCols));
  ASSERT_EQ(run.report.faults.size(), 1u);
  const std::string fault = first_fault(run);
  EXPECT_EQ(run.report.faults[0].kind, tt::emu::FaultKind::out_of_bounds) << fault;
  EXPECT_EQ(fault.find('\n'), std::string::npos) << fault;
  const tt::emu::CoreCoord bank0 = tt::emu::l1_bank_core(0);
  EXPECT_NE(fault.find("copy_pages.cpp on core (0,0) NCRISC: noc_async_read: L1 [0x180000, 0x180800) of core " +
                       tt::emu::core_name(bank0) + " lies outside its CBs, semaphores and L1 buffers"),
            std::string::npos)
      << fault;
}

TEST(L1Buffers, BankPastTheLastIsOneLineFault) {
  TempDir dir;
  ordered_json src = tensor("src", "l1_interleaved", kRows, kCols), dst = tensor("dst", "dram_interleaved", kRows, kCols);
  src["input"] = "src.npy";
  const DescriptorRun run =
      run_in(dir, copy_program(src, dst, 1, 0, "L1_BANK_PAST_END"), "src.npy", matrix(kRows, kCols));
  ASSERT_EQ(run.report.faults.size(), 1u);
  const std::string fault = first_fault(run);
  EXPECT_EQ(fault.find('\n'), std::string::npos) << fault;
  EXPECT_NE(fault.find("out_of_bounds: kernel "), std::string::npos) << fault;
  EXPECT_NE(fault.find("L1 bank 110 does not exist (the chip has 110 L1 banks, one per worker core)"),
            std::string::npos)
      << fault;
}

TEST(L1Buffers, ShardedTensorIsReadOnItsCores) {
  TempDir dir;
  // 8 tiles in two shards of 4 on cores (1,0) and (2,0), which run no kernel
  ordered_json x = tensor("x", "l1_sharded", 64, 128), dst = tensor("dst", "dram_interleaved", 64, 128);
  x["cores"] = ordered_json::array({{{"start", {1, 0}}, {"end", {2, 0}}}});
  x["shard_size"] = 4 * kPage;
  x["input"] = "x.npy";
  dst["output"] = "dst.npy";
  ordered_json program = copy_program(x, dst, 0, 0);
  program["kernels"][0] = {
      {"kernel_source", l1_kernel("gather_shards.cpp")},
      {"core_ranges", one_core()},
      {"config", {{"type", "reader"}}},
      {"runtime_args", {{{"core", {0, 0}}, {"args", {{{"address_of", "x"}}, {{"address_of", "dst"}}, 4, 2, 1, 0, 2, 0}}}}}};
  const Tensor in = matrix(64, 128);
  const DescriptorRun run = run_in(dir, program, "x.npy", in);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  EXPECT_TRUE(same_values(io::read_npy(dir / "dst.npy"), in));
}

TEST(L1Buffers, InterleavedPagesLieInTheirBanks) {
  tt::dialect::HostDevice device(std::filesystem::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  const uint32_t page = 100;  // rounded up to 112 in a bank
  const uint32_t address = tt::kL1Bytes - 4096;
  auto buffer = tt::dialect::CreateL1Buffer(device, {.size = 300 * page, .page_size = page, .address = address});
  std::vector<std::byte> bytes(300 * page);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::byte(i * 13 % 251);
  tt::dialect::EnqueueWriteBuffer(device, *buffer, bytes);
  // page 221 = 2 * 110 + 1: bank 1, third row
  const std::vector<std::byte> third = device.emulator().read_l1(buffer->l1(), tt::emu::l1_bank_core(1), 2 * 112, page);
  EXPECT_TRUE(std::equal(third.begin(), third.end(), bytes.begin() + 221 * page));
  std::vector<std::byte> back;
  tt::dialect::EnqueueReadBuffer(device, *buffer, back);
  EXPECT_EQ(back, bytes);
  // the banks are the worker cores, each once, not in row-major order (tt-metal shuffles them)
  std::set<tt::emu::CoreCoord> cores;
  bool shuffled = false;
  for (uint32_t bank = 0; bank < tt::emu::kNumL1Banks; ++bank) {
    cores.insert(tt::emu::l1_bank_core(bank));
    shuffled = shuffled || tt::emu::l1_bank_core(bank) != tt::emu::core_at(bank);
  }
  EXPECT_EQ(cores.size(), tt::emu::kNumCores);
  EXPECT_TRUE(shuffled);
}

TEST(L1Buffers, CbOverlappingAnL1BufferIsRefused) {
  tt::dialect::HostDevice device(std::filesystem::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  const uint32_t address = tt::kL1Bytes - 8192;
  tt::dialect::CreateL1Buffer(device, {.size = 110 * 4096, .page_size = 4096, .address = address, .name = "l1x"});
  tt::dialect::Program program = tt::dialect::CreateProgram();
  const tt::dialect::CoreRangeSet core = {{{3, 2}, {3, 2}}};
  tt::dialect::CreateKernel(program, l1_kernel("gather_shards.cpp"), core, tt::dialect::ReaderDataMovementConfig{});
  tt::dialect::CreateCircularBuffer(program, core,
                                    {.total_size = 8192,
                                     .buffer_index = 0,
                                     .page_size = 2048,
                                     .placed_address = address - 2048});
  try {
    device.load(program);
    FAIL() << "a CB over an L1 buffer loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("CB 'cb0' [0x17d800, 0x17f800) overlaps L1 buffer 'l1x' on core (3,2)"),
              std::string::npos)
        << e.what();
  }
}

TEST(L1Buffers, OverlappingL1BuffersAndUnwrittenBytesAreRefused) {
  tt::dialect::HostDevice device(std::filesystem::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  const uint32_t address = tt::kL1Bytes - 8192;
  auto a = tt::dialect::CreateL1Buffer(device, {.size = 8192, .address = address, .shard_cores = {{1, 1}, {2, 1}},
                                                .shard_size = 4096, .name = "a"});
  // another buffer over the same bytes of core (2,1) is refused; on other cores it is not
  EXPECT_THROW(tt::dialect::CreateL1Buffer(device, {.size = 4096, .address = address + 2048, .shard_cores = {{2, 1}},
                                                    .shard_size = 4096, .name = "b"}),
               Error);
  EXPECT_NO_THROW(tt::dialect::CreateL1Buffer(device, {.size = 4096, .address = address + 2048, .shard_cores = {{3, 1}},
                                                       .shard_size = 4096, .name = "c"}));
  std::vector<std::byte> bytes;
  try {
    tt::dialect::EnqueueReadBuffer(device, *a, bytes);
    FAIL() << "bytes nobody wrote were read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("read_l1: byte 0 of L1 buffer 'a' on core (1,1) was never written"),
              std::string::npos)
        << e.what();
  }
}

// ---- the descriptor ----

std::string refusal(const ordered_json& program) {
  try {
    tt::dialect::parse_descriptor(program, "program.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(L1Buffers, DescriptorPlacesL1TensorsFromTheTopDown) {
  ordered_json src = tensor("src", "l1_interleaved", kRows, kCols), dst = tensor("dst", "l1_interleaved", 32, 32);
  const tt::dialect::ProgramDescriptor program = tt::dialect::parse_descriptor(copy_program(src, dst, 1, 0), "p.json");
  const tt::dialect::L1Layout layout = tt::dialect::l1_layout(program);
  EXPECT_EQ(layout.interleaved_addresses.at("src"), tt::kL1Bytes - 2 * kPage);  // two pages in the fullest bank
  EXPECT_EQ(layout.interleaved_addresses.at("dst"), tt::kL1Bytes - 3 * kPage);
  EXPECT_EQ(layout.cb_addresses.at(0), tt::kL1CbBase);
}

TEST(L1Buffers, DescriptorJsonKeepsTheMemoryKinds) {
  ordered_json x = tensor("x", "l1_sharded", 64, 128);
  x["cores"] = ordered_json::array({{{"start", {1, 0}}, {"end", {2, 0}}}});
  x["shard_size"] = 4 * kPage;
  ordered_json program =
      copy_program(tensor("src", "l1_interleaved", 32, 32), tensor("dst", "dram_interleaved", 32, 32), 1, 0);
  program["tensors"].push_back(x);
  const ordered_json written = tt::dialect::descriptor_json(tt::dialect::parse_descriptor(program, "p.json"));
  EXPECT_EQ(written["tensors"][0]["memory"], "l1_interleaved");
  EXPECT_EQ(written["tensors"][1]["memory"], "dram_interleaved");
  EXPECT_EQ(written["tensors"][2]["memory"], "l1_sharded");
  EXPECT_EQ(tt::dialect::descriptor_json(tt::dialect::parse_descriptor(written, "p.json")), written);
}

TEST(L1Buffers, DescriptorRefusalsNameTheField) {
  ordered_json program = copy_program(tensor("src", "l1_banked", 32, 32), tensor("dst", "dram_interleaved", 32, 32), 1, 0);
  std::string error = refusal(program);
  EXPECT_NE(error.find("program.json: tensors[0].memory: expected one of \"dram_interleaved\", \"l1_interleaved\", "
                       "\"l1_sharded\", \"dram_sharded\", got \"l1_banked\""),
            std::string::npos)
      << error;
  program["tensors"][0]["memory"] = "l1_interleaved";
  program["tensors"][0]["cores"] = one_core();
  error = refusal(program);
  EXPECT_NE(error.find("program.json: tensors[0].cores: only an l1_sharded or dram_sharded tensor has cores"), std::string::npos) << error;
  program["tensors"][0].erase("cores");
  program["tensors"][0]["shape"] = {32 * 110, 32 * 1024};  // 1024 bf16 tiles in every bank: 2 MiB
  error = refusal(program);
  EXPECT_NE(error.find("program.json: tensors[0].shape: takes 2097152 B in each of the 110 L1 banks"), std::string::npos)
      << error;
  program["tensors"][0]["shape"] = {32 * 110, 32 * 712};  // 1424 KiB per bank: CB 0 no longer fits below it
  error = refusal(program);
  EXPECT_NE(error.find("program.json: cbs[0].total_size: the CBs on core (0,0) need L1 up to offset"), std::string::npos)
      << error;
  EXPECT_NE(error.find("held by L1 tensors"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

}  // namespace
}  // namespace ditmk::testing
