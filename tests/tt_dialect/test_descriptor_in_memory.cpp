// The descriptor runner's in-memory entry (what ditmk.ttnn runs): device bytes in, every io tensor's
// bytes out, tensors at the addresses the host chose; the same launch as the .npy entry.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/generic_op/descriptor_runner.hpp"
#include "ditmk/tt/program/tensor_codec.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::TempDir;

const fs::path kLoopback = fs::path(ditmk::build::source_dir()) / "examples/tt/loopback";

// The loopback example (src -> dst through one core, float32 tiles) with fixed DRAM addresses, its
// input written beside it.
ProgramDescriptor loopback(const TempDir& dir, uint32_t src_address, uint32_t dst_address) {
  nlohmann::ordered_json json = nlohmann::ordered_json::parse(std::ifstream(kLoopback / "program.json"));
  json["tensors"][0]["address"] = src_address;
  json["tensors"][1]["address"] = dst_address;
  Tensor src(DType::F32, {256, 256});
  for (int64_t i = 0; i < src.numel(); ++i) src.data<float>()[i] = float(i % 977) * 0.25f - 40.0f;
  io::write_npy(dir / "src.npy", src.view());
  return parse_descriptor(json, kLoopback / "program.json");
}

RunOptions options_in(const TempDir& dir, const TempDir& cache) {
  RunOptions options;
  options.data_dir = dir.path();
  options.kernel_cache = cache.path();
  return options;
}

TEST(DescriptorInMemory, MatchesTheNpyEntryAndReturnsEveryTensor) {
  TempDir dir, cache;
  // dst below src: the addresses are the host's, not the order of the descriptor
  const ProgramDescriptor program = loopback(dir, 0x100000, 0x40);
  const DescriptorRun from_files = run_descriptor(program, options_in(dir, cache));
  ASSERT_TRUE(from_files.report.clean());
  ASSERT_EQ(from_files.outputs.size(), 1u);

  const TensorDescriptor& src = *program.tensor("src");
  const std::vector<std::byte> src_bytes = encode_tensor(src, io::read_npy(dir / "src.npy"), "src.npy");
  const DescriptorRun in_memory = run_descriptor(program, {{"src", src_bytes}}, options_in(dir, cache));
  ASSERT_TRUE(in_memory.report.clean());
  EXPECT_TRUE(in_memory.outputs.empty());  // nothing written to files
  ASSERT_EQ(in_memory.tensors.size(), 2u);
  EXPECT_EQ(in_memory.tensors.at("src"), src_bytes);
  EXPECT_EQ(in_memory.tensors.at("dst"), src_bytes);  // a loopback copies bit for bit
  EXPECT_EQ(in_memory.tensors, from_files.tensors);
  EXPECT_EQ(in_memory.compile.cache_hits, 1u);  // the .npy run compiled the kernel
  // the report both entries give
  const nlohmann::json report = run_report(program, in_memory);
  EXPECT_EQ(report["compile"]["cache_hits"], 1);
  EXPECT_EQ(report["program"], "loopback");
}

TEST(DescriptorInMemory, BadInputsAreOneLine) {
  TempDir dir, cache;
  const ProgramDescriptor program = loopback(dir, 0x40, 0x100000);
  const std::string unknown = error_of([&] { run_descriptor(program, {{"srcs", {}}}, options_in(dir, cache)); });
  EXPECT_NE(unknown.find("input bytes for 'srcs', which is not a tensor of the program"), std::string::npos) << unknown;
  const std::string size = error_of([&] { run_descriptor(program, {{"src", std::vector<std::byte>(10)}}, options_in(dir, cache)); });
  EXPECT_NE(size.find("tensor 'src' takes 262144 B, the input has 10 B"), std::string::npos) << size;
}

TEST(DescriptorInMemory, AKernelReadingUnwrittenBytesFaults) {
  TempDir dir, cache;
  const ProgramDescriptor program = loopback(dir, 0x40, 0x100000);
  const DescriptorRun run = run_descriptor(program, {}, options_in(dir, cache));
  ASSERT_EQ(run.report.faults.size(), 1u);
  EXPECT_TRUE(run.tensors.empty());
}

}  // namespace
}  // namespace ditmk::tt::dialect
