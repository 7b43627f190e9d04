// The compute calls the matmul kernels need (docs/tt-corpus.md, "Matmul, reduce and transpose"): copy_block and
// pack_block move blocks of tiles, mod_div_lib's helpers compute, the BRISC-to-TRISC mailboxes fault,
// and tt-metal 0.81.1's own bmm.cpp multiplies when fed by the matmul_single example's reader.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/tensor.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/generic_op/descriptor_runner.hpp"
#include "ditmk/tt/host_api/host_api.hpp"
#include "support/temp_dir.hpp"
#include "support/tt_metal_tree.hpp"

namespace ditmk::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kExamples = fs::path(ditmk::build::source_dir()) / "examples/tt";
const fs::path kBlockCopy = fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/matmul_kernels/block_copy_pack.cpp";
const fs::path kCbFormats = fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/matmul_kernels/cb_formats_constexpr.cpp";

nlohmann::ordered_json example(const std::string& name) {
  nlohmann::ordered_json program = nlohmann::ordered_json::parse(std::ifstream(kExamples / name / "program.json"));
  for (auto& kernel : program["kernels"]) {
    const fs::path source = kernel["kernel_source"].get<std::string>();
    if (source.is_relative()) kernel["kernel_source"] = (kExamples / name / source).string();
  }
  return program;
}

// bfloat16-exact values: small integers and halves.
Tensor values(int64_t rows, int64_t cols, int seed) {
  Tensor t(DType::F32, {rows, cols});
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float((i * 7 + seed * 13) % 17) * 0.5f - 4.0f;
  return t;
}

tt::dialect::DescriptorRun run(const TempDir& dir, const nlohmann::ordered_json& json) {
  const tt::dialect::ProgramDescriptor program = tt::dialect::parse_descriptor(json, dir.path() / "program.json");
  tt::dialect::RunOptions options;
  options.data_dir = dir.path();
  options.kernel_cache = fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests";
  return tt::dialect::run_descriptor(program, options);
}

std::string first_fault(const tt::dialect::DescriptorRun& r) {
  return r.report.faults.empty() ? "" : tt::emu::to_string(r.report.faults.front());
}

// The eltwise_add example on one core with its compute kernel replaced by block_copy_pack.cpp: a
// and b are 1 x 8 tiles, c 1 x 16.
nlohmann::ordered_json block_copy_program(bool mailbox) {
  nlohmann::ordered_json p = example("eltwise_add");
  p["tensors"][0]["shape"] = {32, 256};
  p["tensors"][1]["shape"] = {32, 256};
  p["tensors"][2]["shape"] = {32, 512};
  for (auto& kernel : p["kernels"]) kernel["core_ranges"] = {{{"start", {0, 0}}, {"end", {0, 0}}}};
  p["kernels"][0]["runtime_args"] = {{{"core", {0, 0}}, {"args", {{{"address_of", "a"}}, {{"address_of", "b"}}, 0, 8}}}};
  p["kernels"][1]["kernel_source"] = kBlockCopy.string();
  if (mailbox) p["kernels"][1]["defines"] = {{"MAILBOX", "1"}};
  p["kernels"][2]["runtime_args"] = {{{"core", {0, 0}}, {"args", {{{"address_of", "c"}}, 0, 16}}}};
  for (auto& cb : p["cbs"]) {
    cb["core_ranges"] = {{{"start", {0, 0}}, {"end", {0, 0}}}};
    cb["total_size"] = 4 * 2048;
  }
  return p;
}

TEST(MatmulKernels, CopyBlockAndPackBlockMoveWholeBlocks) {
  TempDir dir;
  const Tensor a = values(32, 256, 1), b = values(32, 256, 2);
  io::write_npy(dir / "a.npy", a.view());
  io::write_npy(dir / "b.npy", b.view());
  const auto r = run(dir, block_copy_program(false));
  ASSERT_TRUE(r.report.clean()) << first_fault(r);
  const Tensor c = io::read_npy(dir / "c.npy");
  ASSERT_EQ(c.shape(), (std::vector<int64_t>{32, 512}));
  // Output tile 4k + j: a's tile 2k + j for j < 2, else b's tile 2k + j - 2; each tile 32 columns.
  for (int64_t row = 0; row < 32; ++row) {
    for (int64_t col = 0; col < 512; ++col) {
      const int64_t tile = col / 32, k = tile / 4, j = tile % 4;
      const Tensor& src = j < 2 ? a : b;
      const int64_t src_col = (2 * k + j % 2) * 32 + col % 32;
      ASSERT_EQ(c.data<float>()[row * 512 + col], src.data<float>()[row * 256 + src_col]) << row << "," << col;
    }
  }
}

TEST(MatmulKernels, MailboxReadFaultsNamingIt) {
  TempDir dir;
  io::write_npy(dir / "a.npy", values(32, 256, 1).view());
  io::write_npy(dir / "b.npy", values(32, 256, 2).view());
  const auto r = run(dir, block_copy_program(true));
  ASSERT_EQ(r.report.faults.size(), 1u);
  const std::string text = first_fault(r);
  EXPECT_NE(text.find("ckernel::mailbox_read(thread 0): the BRISC-to-TRISC mailboxes are not modelled"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("block_copy_pack.cpp on core (0,0)"), std::string::npos) << text;
}

// 0.81.1's bmm.cpp (named CBs, DataflowBuffer, SrcOrder::Reverse start) against a double-precision reference:
// C = A x B accumulated in fp32 from bfloat16-exact inputs, rounded once to bfloat16.
TEST(MatmulKernels, TreeBmmMultipliesAsTheExampleKernelDoes) {
  const auto tree = ditmk::test::tt_metal_tree();
  if (!tree) GTEST_SKIP() << ditmk::test::tt_metal_tree_missing();
  TempDir dir;
  const Tensor a = values(64, 128, 3), b = values(128, 96, 4);
  io::write_npy(dir / "a.npy", a.view());
  io::write_npy(dir / "b.npy", b.view());
  nlohmann::ordered_json p = example("matmul_single");
  p["kernels"][1]["kernel_source"] = (*tree / "ttnn/cpp/ttnn/operations/matmul/device/kernels/compute/bmm.cpp").string();
  p["kernels"][1]["compile_time_args"] = {1, 2, 4, 3};  // batch, Mt, Kt, Nt
  p["kernels"][1]["named_compile_time_args"] = {{"cb_in0", 0}, {"cb_in1", 1}, {"cb_out", 16}};
  const auto r = run(dir, p);
  ASSERT_TRUE(r.report.clean()) << first_fault(r);
  const Tensor c = io::read_npy(dir / "c.npy");
  for (int64_t i = 0; i < 64; ++i) {
    for (int64_t j = 0; j < 96; ++j) {
      double want = 0;
      for (int64_t k = 0; k < 128; ++k) want += double(a.data<float>()[i * 128 + k]) * b.data<float>()[k * 96 + j];
      // One bfloat16 rounding of the fp32 sum: within 2^-8 relative.
      ASSERT_NEAR(c.data<float>()[i * 96 + j], want, std::fabs(want) / 256 + 1e-6) << i << "," << j;
    }
  }
}

// cb_formats_constexpr.cpp on cores (0,0) and (1,0) with CB 0 in bfloat16 and CB 1 in bfloat8_b
// (CB 1 in float32 on (1,0) instead when `mixed`).
tt::emu::LaunchReport run_cb_formats(bool ask_missing, bool mixed) {
  using namespace tt::dialect;
  HostDevice device(fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  Program program = CreateProgram();
  const CoreRangeSet both = {{{0, 0}, {1, 0}}};
  ReaderDataMovementConfig config;
  if (ask_missing) config.defines = {{"ASK_MISSING", "1"}};
  CreateKernel(program, kCbFormats, both, config);
  CreateCircularBuffer(program, both, {.total_size = 4096, .buffer_index = 0, .page_size = 2048});
  if (mixed) {
    CreateCircularBuffer(program, {{{0, 0}, {0, 0}}},
                         {.total_size = 2176, .buffer_index = 1, .data_format = DataFormat::bfp8_b, .page_size = 1088});
    CreateCircularBuffer(program, {{{1, 0}, {1, 0}}},
                         {.total_size = 8192, .buffer_index = 1, .data_format = DataFormat::float32, .page_size = 4096});
  } else {
    CreateCircularBuffer(program, both,
                         {.total_size = 2176, .buffer_index = 1, .data_format = DataFormat::bfp8_b, .page_size = 1088});
  }
  return EnqueueProgram(device, program);
}

TEST(MatmulKernels, CbFormatsAreConstantExpressions) {
  const tt::emu::LaunchReport report = run_cb_formats(false, false);
  EXPECT_TRUE(report.clean()) << (report.faults.empty() ? "" : tt::emu::to_string(report.faults.front()));
}

TEST(MatmulKernels, ACbTheTablesLackIsAskedOfTheRunningProgram) {
  const tt::emu::LaunchReport report = run_cb_formats(true, false);
  ASSERT_FALSE(report.faults.empty());
  const std::string text = tt::emu::to_string(report.faults.front());
  EXPECT_NE(text.find("get_tile_size"), std::string::npos) << text;
  EXPECT_NE(text.find("cb_formats_constexpr.cpp on core (0,0)"), std::string::npos) << text;
}

TEST(MatmulKernels, TwoFormatsOfOneCbOnAKernelsCoresAreRefused) {
  try {
    run_cb_formats(false, true);
    FAIL() << "expected the load to refuse CB #1";
  } catch (const std::exception& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("cb_formats_constexpr.cpp: CB #1 has two formats on the kernel's cores"), std::string::npos)
        << text;
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace ditmk::testing
