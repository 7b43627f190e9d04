// tt-metal's object-style dataflow API on the emulator (tests/tt_dialect/noc_kernels): Noc transfers
// between every kind of endpoint, the sharded TensorAccessor's page mapping against the layout the
// descriptor gives an L1-sharded tensor, Semaphore's local and NoC calls, and the faults of what is
// not modelled.
#include <gtest/gtest.h>

#include <cstring>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/generic_op/descriptor_program.hpp"
#include "tt_dialect/descriptor_in_dir.hpp"

namespace ditmk::testing {
namespace {

using nlohmann::ordered_json;

std::string noc_kernel(const std::string& name) {
  return (std::filesystem::path(ditmk::build::source_dir()) / "tests/tt_dialect/noc_kernels" / name).string();
}

ordered_json cores(uint32_t x0, uint32_t x1) { return ordered_json::array({{{"start", {x0, 0}}, {"end", {x1, 0}}}}); }

ordered_json cb0(uint32_t page) {
  return {{"total_size", 2 * page},
          {"core_ranges", cores(0, 0)},
          {"format_descriptors", {{{"buffer_index", 0}, {"data_format", "bfloat16"}, {"page_size", page}}}}};
}

// [64, 128] bfloat16 in tiles: 8 pages of 2048 B; values bfloat16 holds exactly (multiples of 1/64 in [-2, 2)).
Tensor eight_tiles() {
  Tensor t(DType::F32, {64, 128});
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float(int64_t(i * 37 % 256) - 128) / 64.0f;
  return t;
}

ordered_json tile_tensor(const std::string& name, const std::string& memory) {
  return {{"name", name}, {"memory", memory}, {"layout", "tile"}, {"data_format", "bfloat16"},
          {"shape", {64, 128}}, {"page_size", 2048}};
}

TEST(NocObjects, EveryEndpointCopiesThePagesItNames) {
  TempDir dir;
  ordered_json src = tile_tensor("src", "dram_interleaved");
  src["input"] = "src.npy";
  ordered_json dst = tile_tensor("dst", "dram_interleaved");
  dst["output"] = "dst.npy";
  ordered_json shard = tile_tensor("shard", "l1_sharded");
  shard["cores"] = cores(1, 2);
  shard["shard_size"] = 4 * 2048;
  shard["output"] = "shard.npy";
  const ordered_json program = {
      {"tensors", {src, dst, shard}},
      {"kernels",
       {{{"kernel_source", noc_kernel("endpoints_copy.cpp")},
         {"core_ranges", cores(0, 0)},
         {"config", {{"type", "reader"}}},
         {"compile_time_args",
          {{{"tensor_accessor_args", "src"}}, {{"tensor_accessor_args", "dst"}}, {{"tensor_accessor_args", "shard"}}}},
         {"runtime_args",
          {{{"core", {0, 0}},
            {"args", {{{"address_of", "src"}}, {{"address_of", "dst"}}, {{"address_of", "shard"}}, 8, 4}}}}}}}},
      {"cbs", {cb0(2048)}}};
  const Tensor in = eight_tiles();
  const tt::dialect::DescriptorRun run = run_in(dir, program, "src.npy", in);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  for (const char* output : {"dst.npy", "shard.npy"}) {
    const Tensor out = io::read_npy(dir / output);
    ASSERT_EQ(out.nbytes(), in.nbytes()) << output;
    EXPECT_EQ(std::memcmp(out.bytes(), in.bytes(), in.nbytes()), 0) << output;
  }
}

// Accessors of different types (DRAM interleaved, L1 sharded) behind AbstractTensorAccessorWrapper,
// picked by a runtime index, as endpoints of both directions.
TEST(NocObjects, AbstractAccessorWrappersReachTheTensorsTheyWrap) {
  TempDir dir;
  ordered_json src = tile_tensor("src", "dram_interleaved");
  src["input"] = "src.npy";
  ordered_json shard = tile_tensor("shard", "l1_sharded");
  shard["cores"] = cores(1, 2);
  shard["shard_size"] = 4 * 2048;
  shard["output"] = "shard.npy";
  const ordered_json program = {
      {"tensors", {src, shard}},
      {"kernels",
       {{{"kernel_source", noc_kernel("abstract_accessor_copy.cpp")},
         {"core_ranges", cores(0, 0)},
         {"config", {{"type", "reader"}}},
         {"compile_time_args", {{{"tensor_accessor_args", "src"}}, {{"tensor_accessor_args", "shard"}}}},
         {"runtime_args", {{{"core", {0, 0}}, {"args", {{{"address_of", "src"}}, {{"address_of", "shard"}}, 8}}}}}}}},
      {"cbs", {cb0(2048)}}};
  const Tensor in = eight_tiles();
  const tt::dialect::DescriptorRun run = run_in(dir, program, "src.npy", in);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  const Tensor out = io::read_npy(dir / "shard.npy");
  ASSERT_EQ(out.nbytes(), in.nbytes());
  EXPECT_EQ(std::memcmp(out.bytes(), in.bytes(), in.nbytes()), 0);
}

// shard_pages() over an L1-sharded tensor of 12 tiles in shards of 8: the second shard's last 4 pages
// lie outside the tensor and are passed over; each yielded page is a NoC endpoint of its bytes (and of
// the block that follows it in its bank), and knows its page id.
TEST(NocObjects, ShardPagesYieldTheTensorsPagesShardByShard) {
  TempDir dir;
  auto tensor = [](const std::string& name, const std::string& memory) {
    return ordered_json{{"name", name}, {"memory", memory}, {"layout", "tile"}, {"data_format", "bfloat16"},
                        {"shape", {96, 128}}, {"page_size", 2048}};
  };
  ordered_json shard = tensor("shard", "l1_sharded");
  shard["cores"] = cores(1, 2);
  shard["shard_size"] = 8 * 2048;
  shard["input"] = "in.npy";
  ordered_json dst = tensor("dst", "dram_interleaved");
  dst["output"] = "dst.npy";
  ordered_json dst2 = tensor("dst2", "dram_interleaved");
  dst2["output"] = "dst2.npy";
  const ordered_json program = {
      {"tensors", {shard, dst, dst2}},
      {"kernels",
       {{{"kernel_source", noc_kernel("shard_pages_copy.cpp")},
         {"core_ranges", cores(0, 0)},
         {"config", {{"type", "reader"}}},
         {"compile_time_args",
          {{{"tensor_accessor_args", "shard"}}, {{"tensor_accessor_args", "dst"}}, {{"tensor_accessor_args", "dst2"}}}},
         {"runtime_args",
          {{{"core", {0, 0}},
            {"args", {{{"address_of", "shard"}}, {{"address_of", "dst"}}, {{"address_of", "dst2"}}, 2, 12, 2}}}}}}}},
      {"cbs", {cb0(2048)}}};
  Tensor in(DType::F32, {96, 128});
  for (int64_t i = 0; i < in.numel(); ++i) in.data<float>()[i] = float(int64_t(i * 53 % 256) - 128) / 64.0f;
  const tt::dialect::DescriptorRun run = run_in(dir, program, "in.npy", in);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  for (const char* output : {"dst.npy", "dst2.npy"}) {
    const Tensor out = io::read_npy(dir / output);
    ASSERT_EQ(out.nbytes(), in.nbytes()) << output;
    EXPECT_EQ(std::memcmp(out.bytes(), in.bytes(), in.nbytes()), 0) << output;
  }
}

// The stateful calls, free and Noc's, with and without transaction ids, over a 16-page tensor.
TEST(NocObjects, StatefulTransfersCopyBankByBank) {
  TempDir dir;
  auto tensor = [](const std::string& name) {
    return ordered_json{{"name", name}, {"memory", "dram_interleaved"}, {"layout", "tile"},
                        {"data_format", "bfloat16"}, {"shape", {128, 128}}, {"page_size", 2048}};
  };
  ordered_json src = tensor("src");
  src["input"] = "src.npy";
  ordered_json dst = tensor("dst");
  dst["output"] = "dst.npy";
  const ordered_json program = {
      {"tensors", {src, dst}},
      {"kernels",
       {{{"kernel_source", noc_kernel("stateful_copy.cpp")},
         {"core_ranges", cores(0, 0)},
         {"config", {{"type", "reader"}}},
         {"compile_time_args", {{{"tensor_accessor_args", "src"}}, {{"tensor_accessor_args", "dst"}}}},
         {"runtime_args", {{{"core", {0, 0}}, {"args", {{{"address_of", "src"}}, {{"address_of", "dst"}}}}}}}}}},
      {"cbs",
       {{{"total_size", 2 * 2048},
         {"core_ranges", cores(0, 0)},
         {"format_descriptors", {{{"buffer_index", 0}, {"data_format", "bfloat16"}, {"page_size", 2048}}}}}}}};
  Tensor in(DType::F32, {128, 128});
  for (int64_t i = 0; i < in.numel(); ++i) in.data<float>()[i] = float(int64_t(i * 37 % 256) - 128) / 64.0f;
  const tt::dialect::DescriptorRun run = run_in(dir, program, "src.npy", in);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  const Tensor out = io::read_npy(dir / "dst.npy");
  ASSERT_EQ(out.nbytes(), in.nbytes());
  EXPECT_EQ(std::memcmp(out.bytes(), in.bytes(), in.nbytes()), 0);
}

TEST(NocObjects, SemaphoresPassValuesBetweenCores) {
  TempDir dir;
  ordered_json runtime_args = ordered_json::array();
  for (uint32_t x = 0; x < 3; ++x) runtime_args.push_back({{"core", {x, 0}}, {"args", {x == 0 ? 1 : 0}}});
  const ordered_json program = {
      {"tensors", {tile_tensor("unused", "dram_interleaved")}},
      {"kernels",
       {{{"kernel_source", noc_kernel("semaphore_rounds.cpp")},
         {"core_ranges", cores(0, 2)},
         {"config", {{"type", "reader"}}},
         {"runtime_args", runtime_args}}}},
      {"semaphores",
       {{{"id", 0}, {"core_ranges", cores(0, 2)}, {"initial_value", 0}},
        {{"id", 1}, {"core_ranges", cores(0, 2)}, {"initial_value", 0}}}}};
  const tt::dialect::DescriptorRun run = run_in(dir, program, "unused.npy", Tensor(DType::F32, {1}));
  EXPECT_TRUE(run.report.clean()) << first_fault(run);
}

// async_write_zeros zeroes exactly the bytes it is given, at the destination's offset, in local L1.
TEST(NocObjects, WriteZerosClearsTheGivenBytesOfLocalL1) {
  TempDir dir;
  const ordered_json program = {
      {"tensors",
       {{{"name", "out"}, {"memory", "dram_interleaved"}, {"layout", "row_major"}, {"data_format", "uint32"},
         {"shape", {1, 16}}, {"output", "out.npy"}}}},
      {"kernels",
       {{{"kernel_source", noc_kernel("write_zeros.cpp")},
         {"core_ranges", cores(0, 0)},
         {"config", {{"type", "reader"}}},
         {"compile_time_args", {{{"tensor_accessor_args", "out"}}}},
         {"runtime_args", {{{"core", {0, 0}}, {"args", {{{"address_of", "out"}}}}}}}}}},
      {"cbs",
       {{{"total_size", 64},
         {"core_ranges", cores(0, 0)},
         {"format_descriptors", {{{"buffer_index", 0}, {"data_format", "uint32"}, {"page_size", 64}}}}}}}};
  const tt::dialect::DescriptorRun run = run_in(dir, program, "unused.npy", Tensor(DType::I32, {1}));
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  const Tensor out = io::read_npy(dir / "out.npy");
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out.data<int32_t>()[i], i >= 4 && i < 12 ? 0 : -1) << "word " << i;
}

class NocUnmodelled : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(NocUnmodelled, FaultsNamingTheCall) {
  TempDir dir;
  const ordered_json program = {
      {"tensors", {tile_tensor("unused", "dram_interleaved")}},
      {"kernels",
       {{{"kernel_source", noc_kernel("unmodelled_calls.cpp")},
         {"core_ranges", cores(0, 0)},
         {"config", {{"type", "reader"}}},
         {"defines", {{GetParam().first, "1"}}}}}},
      {"cbs", {cb0(2048)}}};
  const tt::dialect::DescriptorRun run = run_in(dir, program, "unused.npy", Tensor(DType::F32, {1}));
  ASSERT_FALSE(run.report.clean());
  EXPECT_NE(first_fault(run).find(GetParam().second), std::string::npos) << first_fault(run);
}

INSTANTIATE_TEST_SUITE_P(
    Calls, NocUnmodelled,
    ::testing::Values(std::pair<std::string, std::string>{"INLINE_DW_WRITE", "not modelled: Noc::inline_dw_write"},
                      std::pair<std::string, std::string>{"READ_WITH_STATE_FIRST",
                                                          "noc_async_read_with_state before its read_set_state"},
                      std::pair<std::string, std::string>{"WRITE_ZEROS_DRAM_BARRIER",
                                                          "not modelled: Noc::write_zeros_dram_barrier"}),
    [](const auto& info) { return info.param.first; });

// The descriptor's expansion, word by word (api/tensor/tensor_accessor_args.h's layout).
TEST(TensorAccessorArgsEncoding, InterleavedCarryTheAlignedPage) {
  tt::dialect::TensorDescriptor t;
  t.name = "t";
  t.page_size = 100;
  t.memory = tt::dialect::TensorMemory::dram_interleaved;
  EXPECT_EQ(tt::dialect::tensor_accessor_args(t), (std::vector<uint32_t>{2, 128}));
  t.memory = tt::dialect::TensorMemory::l1_interleaved;
  EXPECT_EQ(tt::dialect::tensor_accessor_args(t), (std::vector<uint32_t>{0, 112}));
}

TEST(TensorAccessorArgsEncoding, ShardedCarryShapesAndBankCoordinates) {
  tt::dialect::TensorDescriptor t;
  t.name = "t";
  t.memory = tt::dialect::TensorMemory::l1_sharded;
  t.layout = tt::dialect::TensorLayout::tile;
  t.shape = {96, 32};  // 3 tiles
  t.page_size = 2048;
  t.shard_size = 2048;
  t.cores = {tt::dialect::CoreRange{{4, 5}, {6, 5}}};
  const uint32_t bank0 = 4 << 8 | 5, bank1 = 5 << 8 | 5, bank2 = 6 << 8 | 5;
  EXPECT_EQ(tt::dialect::tensor_accessor_args(t),
            (std::vector<uint32_t>{1, 2048, 1, 3, 3, 1, bank0 | bank1 << 16, bank2}));
  // by its page grid: one row of three tiles, a tile per shard
  t.tensor_pages = {1, 3};
  t.shard_pages = {1, 1};
  EXPECT_EQ(tt::dialect::tensor_accessor_args(t),
            (std::vector<uint32_t>{1, 2048, 2, 3, 1, 3, 1, 1, bank0 | bank1 << 16, bank2}));
  t.tensor_pages.clear();
  t.shard_pages.clear();
  t.page_size = 1000;
  t.shard_size = 3000;
  try {
    tt::dialect::tensor_accessor_args(t);
    ADD_FAILURE() << "a sharded page of 1000 B was encoded";
  } catch (const ditmk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("tensor 't'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ditmk::testing
