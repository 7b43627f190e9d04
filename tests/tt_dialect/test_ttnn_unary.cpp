// ttnn's unary op kernels, run unchanged from the tt-metal reference tree: the interleaved reader and
// writer (TensorAccessorArgs in tt-metal's encoding, Noc, DataflowBuffer, get_local_cb_interface)
// around eltwise_sfpu.cpp with the defines ttnn's unary program factory gives it. Skipped, naming
// the path, when the tree is absent.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "support/tt_metal_tree.hpp"
#include "tt_dialect/descriptor_in_dir.hpp"

namespace ditmk::testing {
namespace {

using nlohmann::ordered_json;

const std::string kUnary = "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/";
constexpr uint32_t kTiles = 64;  // a 256 x 256 tensor
constexpr uint32_t kTileBytes = 2048;

ordered_json core_range(uint32_t x0, uint32_t x1) {
  return ordered_json::array({{{"start", {x0, 0}}, {"end", {x1, 0}}}});
}

// Each of `cores` cores (x = 0, 1, ...) takes an equal run of pages from start_id = its first page.
ordered_json per_core_args(uint32_t cores, const std::function<ordered_json(uint32_t, uint32_t)>& args_of) {
  ordered_json out = ordered_json::array();
  for (uint32_t x = 0; x < cores; ++x) out.push_back({{"core", {x, 0}}, {"args", args_of(kTiles / cores, x * kTiles / cores)}});
  return out;
}

// ttnn's unary program: reader -> eltwise_sfpu (with `defines`) -> writer, CB c_0 in and c_2 out.
ordered_json unary_program(uint32_t cores, const std::string& dst_memory, const ordered_json& defines) {
  auto tensor = [](const std::string& name, const std::string& memory) {
    return ordered_json{{"name", name}, {"memory", memory}, {"layout", "tile"}, {"data_format", "bfloat16"},
                        {"shape", {256, 256}}, {"page_size", kTileBytes}};
  };
  ordered_json src = tensor("src", "dram_interleaved");
  src["input"] = "src.npy";
  ordered_json dst = tensor("dst", dst_memory);
  dst["output"] = "dst.npy";
  auto cb = [&](uint32_t index) {
    return ordered_json{{"total_size", 2 * kTileBytes},
                        {"core_ranges", core_range(0, cores - 1)},
                        {"format_descriptors",
                         {{{"buffer_index", index}, {"data_format", "bfloat16"}, {"page_size", kTileBytes}}}}};
  };
  ordered_json compute = {{"kernel_source", kUnary + "compute/eltwise_sfpu.cpp"},
                          {"core_ranges", core_range(0, cores - 1)},
                          {"config", {{"type", "compute"}, {"math_fidelity", "HiFi4"}}},
                          {"runtime_args", per_core_args(cores, [](uint32_t n, uint32_t) { return ordered_json{n}; })}};
  if (!defines.empty()) compute["defines"] = defines;
  return {{"name", "ttnn_unary"},
          {"tensors", {src, dst}},
          {"kernels",
           {{{"kernel_source", kUnary + "dataflow/reader_unary_interleaved_start_id.cpp"},
             {"core_ranges", core_range(0, cores - 1)},
             {"config", {{"type", "reader"}}},
             {"compile_time_args", {{{"tensor_accessor_args", "src"}}}},
             {"runtime_args", per_core_args(cores,
                                            [](uint32_t n, uint32_t start) {
                                              return ordered_json{{{"address_of", "src"}}, n, start};
                                            })}},
            compute,
            {{"kernel_source", kUnary + "dataflow/writer_unary_interleaved_start_id.cpp"},
             {"core_ranges", core_range(0, cores - 1)},
             {"config", {{"type", "writer"}}},
             {"compile_time_args", {2, {{"tensor_accessor_args", "dst"}}}},
             {"runtime_args", per_core_args(cores, [](uint32_t n, uint32_t start) {
                return ordered_json{{{"address_of", "dst"}}, n, start};
              })}}}},
          {"cbs", {cb(0), cb(2)}},
          {"semaphores", ordered_json::array()}};
}

// ttnn's unary factory's defines for exp (unary_op_utils: the op's include guard and the chain).
ordered_json exp_defines() {
  return {{"SFPU_OP_EXP_INCLUDE", "1"},
          {"SFPU_OP_CHAIN_0", "SFPU_OP_CHAIN_0_INIT_0 SFPU_OP_CHAIN_0_FUNC_0"},
          {"SFPU_OP_CHAIN_0_INIT_0", "exp_tile_init<0u>();"},
          {"SFPU_OP_CHAIN_0_FUNC_0", "exp_tile<0u>(0);"}};
}

// Values bfloat16 holds exactly (multiples of 1/64 in [-2, 2)), each element distinct per tile row.
Tensor input() {
  Tensor t(DType::F32, {256, 256});
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float(int64_t(i * 37 % 256) - 128) / 64.0f;
  return t;
}

struct UnaryRun {
  tt::dialect::DescriptorRun run;
  Tensor out;
};

UnaryRun run_unary(const TempDir& dir, const ordered_json& program) {
  const std::optional<std::filesystem::path> tree = ditmk::test::tt_metal_tree();
  io::write_npy(dir / "src.npy", input().view());
  const tt::dialect::ProgramDescriptor parsed = tt::dialect::parse_descriptor(program, dir.path() / "program.json", *tree);
  tt::dialect::RunOptions options;
  options.data_dir = dir.path();
  options.kernel_cache = std::filesystem::path(ditmk::build::binary_dir()) / "kernel-cache-tests";
  UnaryRun r{tt::dialect::run_descriptor(parsed, options), Tensor(DType::F32, {1})};
  if (r.run.report.clean()) r.out = io::read_npy(dir / "dst.npy");
  return r;
}

class TtnnUnary : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ditmk::test::tt_metal_tree()) GTEST_SKIP() << ditmk::test::tt_metal_tree_missing();
  }
  TempDir dir;
};

// Without an op chain the compute kernel copies: the pages come back bit-exact, through the unary
// reader and writer on two cores, each from its own start_id.
TEST_F(TtnnUnary, CopyThroughReaderAndWriterIsExact) {
  const UnaryRun r = run_unary(dir, unary_program(2, "dram_interleaved", ordered_json::object()));
  ASSERT_TRUE(r.run.report.clean()) << first_fault(r.run);
  const Tensor in = input();
  ASSERT_EQ(r.out.nbytes(), in.nbytes());
  EXPECT_EQ(std::memcmp(r.out.bytes(), in.bytes(), in.nbytes()), 0);
}

// exp through SFPU_OP_CHAIN_0, into an L1-interleaved output (the writer's TensorAccessor strides
// its pages by the L1-aligned page the args carry).
TEST_F(TtnnUnary, ExpChainMatchesExpOfTheInputs) {
  const UnaryRun r = run_unary(dir, unary_program(4, "l1_interleaved", exp_defines()));
  ASSERT_TRUE(r.run.report.clean()) << first_fault(r.run);
  const Tensor in = input();
  ASSERT_EQ(r.out.numel(), in.numel());
  for (int64_t i = 0; i < in.numel(); ++i) {
    const float want = std::exp(in.data<float>()[i]);
    ASSERT_NEAR(r.out.data<float>()[i], want, want / 128) << "element " << i;  // bfloat16's 8-bit mantissa
  }
}

// An op the emulator does not model stops the compute kernel with one line naming it.
TEST_F(TtnnUnary, UnmodelledSfpuOpFaultsNamingIt) {
  ordered_json defines = exp_defines();
  defines.erase("SFPU_OP_EXP_INCLUDE");
  defines["SFPU_OP_CHAIN_0_INIT_0"] = "asin_tile_init();";
  defines["SFPU_OP_CHAIN_0_FUNC_0"] = "asin_tile(0);";
  const UnaryRun r = run_unary(dir, unary_program(1, "dram_interleaved", defines));
  ASSERT_FALSE(r.run.report.clean());
  EXPECT_NE(first_fault(r.run).find("not modelled: asin_tile_init"), std::string::npos) << first_fault(r.run);
}

}  // namespace
}  // namespace ditmk::testing
