// Tilize and untilize on the emulated chip: row-major blocks in a CB become tiles and back, through
// every form of the compute API (tilize_block, fast_tilize_block, pack_untilize_block,
// pack_untilize_dest, untilize_block, fast_untilize_block), each run as `ditmk emulate` runs a
// descriptor and checked element by element against the input; and the calls' faults.
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/dtype.hpp"
#include "ditmk/io/npy.hpp"
#include "support/cli_runner.hpp"
#include "support/tt_metal_tree.hpp"

namespace ditmk::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kRows = 64, kCols = 128, kBlock = 4, kBlocks = kRows / 32;  // two blocks of 4 tiles
const fs::path kKernels = fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/kernels";

// Values bf16 holds exactly, different in every element, so a misplaced element shows.
Tensor input_matrix() {
  Tensor m(DType::F32, {kRows, kCols});
  for (int64_t i = 0; i < m.numel(); ++i) m.data<float>()[i] = round_to_bf16(float(i % 509) * 0.25f - 61.0f);
  return m;
}

json kernel(const std::string& file, const std::string& type, json ct_args, json rt_args, json defines = json::object()) {
  json k = {{"kernel_source", (kKernels / file).string()},
            {"core_ranges", json::array({{{"start", {0, 0}}, {"end", {0, 0}}}})},
            {"config", {{"type", type}}},
            {"compile_time_args", std::move(ct_args)},
            {"runtime_args", json::array({{{"core", {0, 0}}, {"args", std::move(rt_args)}}})}};
  if (!defines.empty()) k["defines"] = std::move(defines);
  return k;
}

json cb(uint32_t id, const std::string& format, uint32_t page, uint32_t pages) {
  return {{"total_size", page * pages},
          {"core_ranges", json::array({{{"start", {0, 0}}, {"end", {0, 0}}}})},
          {"format_descriptors", json::array({{{"buffer_index", id}, {"data_format", format}, {"page_size", page}}})}};
}

// The compute kernel of a layout program: the test kernel under a mode define, or one of ttnn's.
struct Compute {
  std::string source;  // a test kernel's file name, or a path under the kernel root
  json ct_args;
  json rt_args = json::array();
  json defines = json::object();
};

Compute test_kernel(const std::string& mode) {
  return {(kKernels / "layout_compute.cpp").string(), {0, 16, kBlocks, kBlock}, json::array(), {{mode, "1"}}};
}

// A one-core program: rows (or tiles) in, the compute kernel, tiles (or rows) out.
json program(const std::string& mode, const std::string& format = "bfloat16", const std::string& in_cb_format = "",
             const Compute& c = {}) {
  const bool to_tiles = mode == "TILIZE" || mode == "FAST_TILIZE";
  const uint32_t element = format == "float32" ? 4 : 2;
  const uint32_t tile = 32 * 32 * element, row = kCols * element;
  json tensors = json::array(
      {{{"name", "src"}, {"memory", "dram_interleaved"}, {"layout", to_tiles ? "row_major" : "tile"},
        {"data_format", format}, {"shape", {kRows, kCols}}, {"input", "src.npy"}},
       {{"name", "dst"}, {"memory", "dram_interleaved"}, {"layout", to_tiles ? "tile" : "row_major"},
        {"data_format", format}, {"shape", {kRows, kCols}}, {"output", "dst.npy"}}});
  json reader = to_tiles ? kernel("rows_reader.cpp", "reader", {0, {{"tensor_accessor_args", "src"}}},
                                  {{{"address_of", "src"}}, kBlocks, row, kBlock})
                         : kernel("tiles_reader.cpp", "reader", {0, {{"tensor_accessor_args", "src"}}},
                                  {{{"address_of", "src"}}, kBlocks * kBlock});
  json writer = to_tiles ? kernel("tiles_writer.cpp", "writer", {16, {{"tensor_accessor_args", "dst"}}},
                                  {{{"address_of", "dst"}}, kBlocks * kBlock})
                         : kernel("rows_writer.cpp", "writer", {16, {{"tensor_accessor_args", "dst"}}},
                                  {{{"address_of", "dst"}}, kBlocks, row, kBlock});
  const Compute chosen = c.source.empty() ? test_kernel(mode) : c;
  json compute = kernel("layout_compute.cpp", "compute", chosen.ct_args, chosen.rt_args, chosen.defines);
  compute["kernel_source"] = chosen.source;
  compute["config"]["fp32_dest_acc_en"] = format == "float32";
  const std::string in_format = in_cb_format.empty() ? format : in_cb_format;
  return {{"name", "layout_" + mode},
          {"tensors", tensors},
          {"kernels", {reader, compute, writer}},
          {"cbs", {cb(0, in_format, tile, 2 * kBlock), cb(16, format, tile, 2 * kBlock)}}};
}

struct LayoutRun {
  CliResult result;
  fs::path dir;
};

LayoutRun emulate(const TempDir& dir, const TempDir& cache, const json& p, const Tensor& input,
                  const std::string& kernel_root = "") {
  io::write_npy(dir / "src.npy", input.view());
  const fs::path file = dir.path() / "program.json";
  std::ofstream(file) << p.dump(1);
  std::string args = "emulate --descriptor " + file.string() + " --kernel-cache " + cache.path().string();
  if (!kernel_root.empty()) args += " --kernel-root " + kernel_root;
  return {run_ditmk(args), dir.path()};
}

void expect_same_matrix(const fs::path& file, const Tensor& expected) {
  const Tensor out = io::read_npy(file);
  ASSERT_EQ(out.numel(), expected.numel());
  for (int64_t i = 0; i < expected.numel(); ++i) {
    ASSERT_EQ(out.data<float>()[i], expected.data<float>()[i])
        << "element (" << i / kCols << ", " << i % kCols << ")";
  }
}

class LayoutKernels : public ::testing::TestWithParam<std::string> {};

TEST_P(LayoutKernels, RowsBecomeTilesAndBackUnchanged) {
  TempDir dir, cache;
  const Tensor input = input_matrix();
  const LayoutRun run = emulate(dir, cache, program(GetParam()), input);
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err << run.result.out;
  expect_same_matrix(dir / "dst.npy", input);
}

INSTANTIATE_TEST_SUITE_P(EveryForm, LayoutKernels,
                         ::testing::Values("TILIZE", "FAST_TILIZE", "PACK_UNTILIZE", "PACK_UNTILIZE_DEST", "UNTILIZE",
                                           "FAST_UNTILIZE"));

TEST(LayoutKernels, Float32RowsKeepEveryBitThroughTilize) {
  TempDir dir, cache;
  Tensor input(DType::F32, {kRows, kCols});
  for (int64_t i = 0; i < input.numel(); ++i) input.data<float>()[i] = 1.0f + float(i) * 1.0e-6f;  // below bf16's step
  const LayoutRun run = emulate(dir, cache, program("TILIZE", "float32"), input);
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  expect_same_matrix(dir / "dst.npy", input);
}

TEST(LayoutKernels, FastTilizeReadsFloat32AsTf32) {
  TempDir dir, cache;
  Tensor input(DType::F32, {kRows, kCols});
  Tensor expected(DType::F32, {kRows, kCols});
  for (int64_t i = 0; i < input.numel(); ++i) {
    input.data<float>()[i] = 1.0f + float(i) * 1.0e-6f;
    // 10 mantissa bits kept, the rest dropped
    expected.data<float>()[i] = std::bit_cast<float>(std::bit_cast<uint32_t>(input.data<float>()[i]) & 0xFFFFE000u);
  }
  const LayoutRun run = emulate(dir, cache, program("FAST_TILIZE", "float32"), input);
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  expect_same_matrix(dir / "dst.npy", expected);
}

TEST(LayoutKernels, TilizeWithoutItsInitIsOneFaultLine) {
  TempDir dir, cache;
  json p = program("TILIZE");
  p["kernels"][1]["defines"]["SKIP_INIT"] = "1";
  const LayoutRun run = emulate(dir, cache, p, input_matrix());
  EXPECT_EQ(run.result.exit_code, 1) << run.result.out;
  EXPECT_NE(run.result.out.find("tilize_init (or fast_tilize_init) must come first"), std::string::npos)
      << run.result.out;
  EXPECT_NE(run.result.out.find("layout_compute.cpp on core (0,0)"), std::string::npos) << run.result.out;
  EXPECT_EQ(run.result.err_lines(), 1) << run.result.err;
  EXPECT_FALSE(fs::exists(dir / "dst.npy"));
}

TEST(LayoutKernels, PackUntilizeWithoutItsInitIsOneFaultLine) {
  TempDir dir, cache;
  json p = program("PACK_UNTILIZE");
  p["kernels"][1]["defines"]["SKIP_INIT"] = "1";
  const LayoutRun run = emulate(dir, cache, p, input_matrix());
  EXPECT_EQ(run.result.exit_code, 1) << run.result.out;
  EXPECT_NE(run.result.out.find("copy_tile_init"), std::string::npos) << run.result.out;
}

TEST(LayoutKernels, RowsInABlockFormatCbAreRefused) {
  TempDir dir, cache;
  const LayoutRun run = emulate(dir, cache, program("TILIZE", "bfloat16", "bfloat8_b"), input_matrix());
  EXPECT_EQ(run.result.exit_code, 1) << run.result.out;
  EXPECT_NE(run.result.out.find("Bfp8_b, which has no row-major form"), std::string::npos) << run.result.out;
}

// ttnn 0.81.1's own tilize and untilize compute kernels, unchanged from the reference tree, between
// the test readers and writers, with the compile-time args their program factories give
// (tilize_*_program_factory.cpp, untilize_*_program_factory.cpp).
struct TtnnLayout {
  std::string name;
  std::string mode;  // which way: TILIZE (rows to tiles) or UNTILIZE
  std::string format;
  Compute compute;
};

void PrintTo(const TtnnLayout& t, std::ostream* os) { *os << t.name; }

class TtnnLayoutKernels : public ::testing::TestWithParam<TtnnLayout> {};

TEST_P(TtnnLayoutKernels, RunUnchangedAndRoundTripExactly) {
  const fs::path tree = test::tt_metal_tree_path();
  if (!fs::exists(tree / "ttnn/cpp/ttnn/kernel_lib/tilize_helpers.hpp")) {
    GTEST_SKIP() << "tt-metal 0.81.1 reference tree not at " << tree.string() << " (scripts/fetch-tt-metal.sh)";
  }
  const TtnnLayout& t = GetParam();
  TempDir dir, cache;
  Tensor input = input_matrix();
  const LayoutRun run = emulate(dir, cache, program(t.mode, t.format, "", t.compute), input, tree.string());
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err << run.result.out;
  expect_same_matrix(dir / "dst.npy", input);
}

const std::string kTilize = "ttnn/cpp/ttnn/operations/data_movement/tilize/device/kernels/compute/";
const std::string kUntilize = "ttnn/cpp/ttnn/operations/data_movement/untilize/device/kernels/compute/";

INSTANTIATE_TEST_SUITE_P(
    Reference, TtnnLayoutKernels,
    ::testing::Values(
        // tilize.cpp: [cb_in, cb_out, blocks, tiles per block]; bf16 takes the fast tilize, fp32 the exact one
        TtnnLayout{"tilize_bf16", "TILIZE", "bfloat16", {kTilize + "tilize.cpp", {0, 16, kBlocks, kBlock}}},
        TtnnLayout{"tilize_fp32", "TILIZE", "float32", {kTilize + "tilize.cpp", {0, 16, kBlocks, kBlock}}},
        // the shared tilize (ttnn/cpp/ttnn/kernel/compute/tilize.cpp): [blocks, tiles per block], CBs c_0 and c_16
        TtnnLayout{"kernel_tilize", "TILIZE", "bfloat16", {"ttnn/cpp/ttnn/kernel/compute/tilize.cpp", {kBlocks, kBlock}}},
        // untilize.cpp: [blocks, tiles per block, cb_in, cb_out]; bf16 takes the fast untilize, fp32 pack untilize
        TtnnLayout{"untilize_bf16", "UNTILIZE", "bfloat16", {kUntilize + "untilize.cpp", {kBlocks, kBlock, 0, 16}}},
        TtnnLayout{"untilize_fp32", "UNTILIZE", "float32", {kUntilize + "untilize.cpp", {kBlocks, kBlock, 0, 16}}},
        // untilize_variable_num_blocks.cpp: [tiles per block, cb_in, cb_out], the block count a runtime arg
        TtnnLayout{"untilize_variable_num_blocks", "UNTILIZE", "bfloat16",
                   {kUntilize + "untilize_variable_num_blocks.cpp", {kBlock, 0, 16}, {kBlocks}}}),
    [](const ::testing::TestParamInfo<TtnnLayout>& info) { return info.param.name; });

}  // namespace
}  // namespace ditmk::testing
