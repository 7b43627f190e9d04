// The ProgramDescriptor reader: a descriptor using every field reads back as written, and each way a
// descriptor can be wrong is refused with one line naming the file and the field's JSON path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/plan/limits.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::tt::dialect {
namespace {

using Json = nlohmann::ordered_json;
using testing::error_of;
using testing::TempDir;

Json range(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  return {{"start", {x0, y0}}, {"end", {x1, y1}}};
}

Json core(uint32_t x, uint32_t y) { return Json::array({x, y}); }

// Uses every field of the format: three io tensors of each memory and layout, the four kernel kinds,
// a CB with two ids, one backed by an L1-sharded tensor, semaphores.
Json valid_descriptor() {
  Json d;
  d["name"] = "eltwise_add";
  d["tensors"] = Json::array({
      {{"name", "a"}, {"memory", "dram_interleaved"}, {"layout", "tile"}, {"data_format", "bfloat16"},
       {"shape", {64, 128}}, {"page_size", 2048}, {"input", "a.npy"}},
      {{"name", "out"}, {"memory", "dram_interleaved"}, {"layout", "tile"}, {"data_format", "Float16_b"},
       {"shape", {2, 64, 128}}, {"output", "out/out.npy"}},
      {{"name", "x"}, {"memory", "l1_sharded"}, {"layout", "tile"}, {"data_format", "bfloat16"},
       {"shape", {32, 256}}, {"cores", {range(0, 0, 3, 0)}}, {"shard_size", 4096}, {"input", "x.npy"}},
      {{"name", "rows"}, {"memory", "dram_interleaved"}, {"layout", "row_major"}, {"data_format", "float32"},
       {"shape", {4, 16}}},
  });
  Json reader = {{"kernel_source", "kernels/reader.cpp"},
                 {"core_ranges", {range(0, 0, 1, 1)}},
                 {"config", {{"type", "reader"}}},
                 {"compile_time_args", {8, {{"tensor_accessor_args", "a"}}}},
                 {"named_compile_time_args", {{"num_tiles", 8}, {"block", 2}}},
                 {"defines", {{"REDUCE_OP", "PoolType::SUM"}, {"A_FLAG", "1"}}},
                 {"runtime_args", {{{"core", core(0, 0)}, {"args", {{{"address_of", "a"}}, 8, 0}}},
                                   {{"core", core(1, 1)}, {"args", {4294967295u}}}}},
                 {"common_runtime_args", {{{"address_of", "out"}}, 4}}};
  Json writer = {{"kernel_source", "kernels/writer.cpp"},
                 {"core_ranges", {range(0, 0, 1, 1)}},
                 {"config", {{"type", "writer"}}}};
  Json compute = {{"kernel_source", "kernels/compute.cpp"},
                  {"core_ranges", {range(0, 0, 1, 0), range(0, 1, 1, 1)}},
                  {"config",
                   {{"type", "compute"},
                    {"math_fidelity", "HiFi2"},
                    {"fp32_dest_acc_en", true},
                    {"math_approx_mode", true},
                    {"unpack_to_dest_mode", {{"0", "UnpackToDestFp32"}, {"16", "Default"}}}}}};
  Json mover = {{"kernel_source", "kernels/reader.cpp"},
                {"core_ranges", {range(2, 0, 3, 0)}},
                {"config", {{"type", "data_movement"}, {"processor", "riscv_0"}, {"noc", 1}}}};
  d["kernels"] = Json::array({reader, writer, compute, mover});
  d["cbs"] = Json::array({
      {{"total_size", 4096},
       {"core_ranges", {range(0, 0, 1, 1)}},
       {"format_descriptors", {{{"buffer_index", 0}, {"data_format", "bfloat16"}, {"page_size", 2048}}}}},
      {{"total_size", 8192},
       {"core_ranges", {range(0, 0, 1, 1)}},
       {"format_descriptors", {{{"buffer_index", 16}, {"data_format", "Float32"}, {"page_size", 4096}},
                               {{"buffer_index", 17}, {"data_format", "Bfp8_b"}, {"page_size", 2048}}}}},
      {{"total_size", 4096},
       {"core_ranges", {range(0, 0, 3, 0)}},
       {"format_descriptors", {{{"buffer_index", 5}, {"data_format", "bfloat16"}, {"page_size", 2048}}}},
       {"tensor", "x"}},
  });
  d["semaphores"] = Json::array({{{"id", 0}, {"core_ranges", {range(0, 0, 1, 1)}}, {"initial_value", 3}},
                                 {{"id", 1}, {"core_ranges", {range(0, 0, 0, 0)}}}});
  return d;
}

// A folder holding program.json and the kernel files it names.
class Descriptor : public ::testing::Test {
 protected:
  Descriptor() {
    std::filesystem::create_directories(dir_.path() / "kernels");
    for (const char* name : {"reader.cpp", "writer.cpp", "compute.cpp"})
      std::ofstream(dir_.path() / "kernels" / name) << "void kernel_main() {}\n";
  }

  std::filesystem::path write(const Json& json, const std::string& name = "program.json") {
    const std::filesystem::path file = dir_.path() / name;
    std::ofstream(file) << json.dump(2);
    return file;
  }
  ProgramDescriptor read(const Json& json) { return read_descriptor(write(json)); }

  // The error reading `valid_descriptor()` changed by `edit` gives; checks that it is one line naming
  // the file and `path`, and that it says `says`.
  void expect_refused(const std::function<void(Json&)>& edit, const std::string& path, const std::string& says) {
    Json json = valid_descriptor();
    edit(json);
    const std::filesystem::path file = write(json);
    const std::string error = error_of([&] { read_descriptor(file); });
    const std::string prefix = file.string() + ": " + path + ": ";
    EXPECT_EQ(error.substr(0, prefix.size()), prefix) << error;
    EXPECT_NE(error.find(says), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }

  TempDir dir_;
};

TEST_F(Descriptor, ValidDescriptorReadsAsWritten) {
  const ProgramDescriptor p = read(valid_descriptor());
  EXPECT_EQ(p.file, dir_.path() / "program.json");
  EXPECT_EQ(p.name, "eltwise_add");

  ASSERT_EQ(p.tensors.size(), 4u);
  const TensorDescriptor& a = p.tensors[0];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.memory, TensorMemory::dram_interleaved);
  EXPECT_EQ(a.layout, TensorLayout::tile);
  EXPECT_EQ(a.data_format, DataFormat::float16_b);
  EXPECT_EQ(a.shape, (std::vector<uint64_t>{64, 128}));
  EXPECT_EQ(a.page_size, 2048u);
  EXPECT_EQ(a.input, "a.npy");
  EXPECT_EQ(a.output, "");
  EXPECT_EQ(a.bytes(), 8u * 2048);
  const TensorDescriptor& out = p.tensors[1];
  EXPECT_EQ(out.page_size, 2048u);  // default: one tile
  EXPECT_EQ(out.output, "out/out.npy");
  EXPECT_EQ(out.bytes(), 16u * 2048);
  const TensorDescriptor& x = *p.tensor("x");
  EXPECT_EQ(x.memory, TensorMemory::l1_sharded);
  ASSERT_EQ(x.cores.size(), 1u);
  EXPECT_EQ(x.cores[0].start, (emu::CoreCoord{0, 0}));
  EXPECT_EQ(x.cores[0].end, (emu::CoreCoord{3, 0}));
  EXPECT_EQ(x.shard_size, 4096u);
  const TensorDescriptor& rows = p.tensors[3];
  EXPECT_EQ(rows.layout, TensorLayout::row_major);
  EXPECT_EQ(rows.data_format, DataFormat::float32);
  EXPECT_EQ(rows.page_size, 64u);  // default: one row
  EXPECT_EQ(rows.bytes(), 256u);
  EXPECT_EQ(p.tensor("nope"), nullptr);

  ASSERT_EQ(p.kernels.size(), 4u);
  const KernelDescriptor& reader = p.kernels[0];
  EXPECT_EQ(reader.kernel_source, "kernels/reader.cpp");
  EXPECT_EQ(reader.source_path, dir_.path() / "kernels" / "reader.cpp");
  EXPECT_TRUE(reader.source_path.is_absolute());
  EXPECT_EQ(reader.config.type, KernelType::reader);
  EXPECT_EQ(reader.config.processor, RiscProcessor::riscv_1);
  EXPECT_EQ(reader.config.noc, 0u);
  ASSERT_EQ(reader.compile_time_args.size(), 2u);
  EXPECT_EQ(reader.compile_time_args[0].value, 8u);
  EXPECT_EQ(reader.compile_time_args[0].tensor_accessor_args, "");
  EXPECT_EQ(reader.compile_time_args[1].tensor_accessor_args, "a");
  using Named = std::vector<std::pair<std::string, uint32_t>>;
  EXPECT_EQ(reader.named_compile_time_args, (Named{{"num_tiles", 8}, {"block", 2}}));  // file order
  using Defines = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(reader.defines, (Defines{{"REDUCE_OP", "PoolType::SUM"}, {"A_FLAG", "1"}}));
  ASSERT_EQ(reader.runtime_args.size(), 2u);
  EXPECT_EQ(reader.runtime_args[0].core, (emu::CoreCoord{0, 0}));
  ASSERT_EQ(reader.runtime_args[0].args.size(), 3u);
  EXPECT_EQ(reader.runtime_args[0].args[0].address_of, "a");
  EXPECT_EQ(reader.runtime_args[0].args[1].value, 8u);
  EXPECT_EQ(reader.runtime_args[1].core, (emu::CoreCoord{1, 1}));
  EXPECT_EQ(reader.runtime_args[1].args[0].value, 4294967295u);
  ASSERT_EQ(reader.common_runtime_args.size(), 2u);
  EXPECT_EQ(reader.common_runtime_args[0].address_of, "out");
  EXPECT_EQ(reader.common_runtime_args[1].value, 4u);

  const KernelConfig& writer = p.kernels[1].config;
  EXPECT_EQ(writer.type, KernelType::writer);
  EXPECT_EQ(writer.processor, RiscProcessor::riscv_0);
  EXPECT_EQ(writer.noc, 1u);
  const KernelConfig& compute = p.kernels[2].config;
  EXPECT_EQ(compute.type, KernelType::compute);
  EXPECT_EQ(compute.math_fidelity, MathFidelity::hifi2);
  EXPECT_TRUE(compute.fp32_dest_acc_en);
  EXPECT_TRUE(compute.math_approx_mode);
  EXPECT_EQ(compute.unpack_to_dest_mode,
            (std::map<uint32_t, UnpackToDestMode>{{0, UnpackToDestMode::fp32}, {16, UnpackToDestMode::standard}}));
  EXPECT_EQ(p.kernels[2].core_ranges.size(), 2u);
  const KernelConfig& mover = p.kernels[3].config;
  EXPECT_EQ(mover.type, KernelType::data_movement);
  EXPECT_EQ(mover.processor, RiscProcessor::riscv_0);
  EXPECT_EQ(mover.noc, 1u);

  ASSERT_EQ(p.cbs.size(), 3u);
  EXPECT_EQ(p.cbs[0].total_size, 4096u);
  ASSERT_EQ(p.cbs[1].format_descriptors.size(), 2u);
  EXPECT_EQ(p.cbs[1].format_descriptors[0].buffer_index, 16u);
  EXPECT_EQ(p.cbs[1].format_descriptors[0].data_format, DataFormat::float32);
  EXPECT_EQ(p.cbs[1].format_descriptors[0].page_size, 4096u);
  EXPECT_EQ(p.cbs[1].format_descriptors[1].data_format, DataFormat::bfp8_b);
  EXPECT_EQ(p.cbs[2].tensor, "x");
  EXPECT_EQ(p.cbs[0].tensor, "");

  ASSERT_EQ(p.semaphores.size(), 2u);
  EXPECT_EQ(p.semaphores[0].id, 0u);
  EXPECT_EQ(p.semaphores[0].initial_value, 3u);
  EXPECT_EQ(p.semaphores[1].id, 1u);
  EXPECT_EQ(p.semaphores[1].initial_value, 0u);
}

TEST_F(Descriptor, OptionalFieldsTakeTtMetalDefaults) {
  Json json = valid_descriptor();
  json.erase("name");
  json["kernels"][2]["config"] = {{"type", "compute"}};
  json["kernels"][3]["config"] = {{"type", "data_movement"}};
  const ProgramDescriptor p = read(json);
  EXPECT_EQ(p.name, "program");  // the file's stem
  EXPECT_EQ(p.kernels[2].config.math_fidelity, MathFidelity::hifi4);
  EXPECT_FALSE(p.kernels[2].config.fp32_dest_acc_en);
  EXPECT_FALSE(p.kernels[2].config.math_approx_mode);
  EXPECT_TRUE(p.kernels[2].config.unpack_to_dest_mode.empty());
  EXPECT_EQ(p.kernels[3].config.processor, RiscProcessor::riscv_0);
  EXPECT_EQ(p.kernels[3].config.noc, 0u);
}

TEST_F(Descriptor, IntegralNumbersMayBeWrittenAsFloats) {
  // JSON has one kind of number: 8.0 is the integer 8 (as JSON Schema's "integer" says).
  Json json = valid_descriptor();
  json["kernels"][0]["compile_time_args"][0] = 8.0;
  json["cbs"][0]["total_size"] = 4.096e3;
  const ProgramDescriptor p = read(json);
  EXPECT_EQ(p.kernels[0].compile_time_args[0].value, 8u);
  EXPECT_EQ(p.cbs[0].total_size, 4096u);
}

TEST_F(Descriptor, L1LayoutPlacesCbsUpwardsAndShardsDownwards) {
  const L1Layout layout = l1_layout(read(valid_descriptor()));
  const uint32_t shard = kL1Bytes - 4096;
  EXPECT_EQ(layout.shard_addresses, (std::map<std::string, uint32_t>{{"x", shard}}));
  EXPECT_EQ(layout.cb_addresses, (std::vector<uint32_t>{kL1CbBase, kL1CbBase + 4096, shard}));
}

TEST_F(Descriptor, L1LayoutGivesACbOneAddressOnAllItsCores) {
  Json json = valid_descriptor();
  // cbs[3] spans (0,0), which cbs[0] and cbs[1] fill up to 12 KiB, and (5,5), which is empty.
  json["cbs"].push_back({{"total_size", 100},
                         {"core_ranges", {range(0, 0, 0, 0), range(5, 5, 5, 5)}},
                         {"format_descriptors", {{{"buffer_index", 7}, {"data_format", "uint8"}, {"page_size", 100}}}}});
  json["cbs"].push_back({{"total_size", 64},
                         {"core_ranges", {range(5, 5, 5, 5)}},
                         {"format_descriptors", {{{"buffer_index", 8}, {"data_format", "uint8"}, {"page_size", 64}}}}});
  const L1Layout layout = l1_layout(read(json));
  EXPECT_EQ(layout.cb_addresses[3], kL1CbBase + 4096 + 8192);
  EXPECT_EQ(layout.cb_addresses[4], kL1CbBase + 4096 + 8192 + 128);  // 100 B rounded up to 32 B
}

// Tensors the host placed itself (ttnn's buffer_address()) keep their addresses; the others go
// below them.
TEST_F(Descriptor, FixedAddressesAreKept) {
  Json json = valid_descriptor();
  json["tensors"][0]["address"] = 0x4000;
  json["tensors"][2]["address"] = kL1Bytes - 8192;
  json["tensors"].push_back({{"name", "y"}, {"memory", "l1_interleaved"}, {"layout", "tile"}, {"data_format", "bfloat16"},
                             {"shape", {32, 32}}});
  const ProgramDescriptor program = read(json);
  EXPECT_EQ(program.tensors[0].address, std::optional<uint32_t>(0x4000));
  EXPECT_EQ(program.tensors[1].address, std::nullopt);
  const L1Layout layout = l1_layout(program);
  EXPECT_EQ(layout.shard_addresses.at("x"), kL1Bytes - 8192);
  EXPECT_EQ(layout.cb_addresses[2], kL1Bytes - 8192);  // the CB x backs lies on its shard
  EXPECT_EQ(layout.interleaved_addresses.at("y"), kL1Bytes - 8192 - 2048);  // below the fixed one
}

TEST_F(Descriptor, BadAddressesAreRefused) {
  expect_refused([](Json& j) { j["tensors"][0]["address"] = 100; }, "tensors[0].address", "0x64 is not 64 B aligned");
  expect_refused([](Json& j) { j["tensors"][0]["address"] = 0; }, "tensors[0].address", "lies in the first 64 B");
  expect_refused([](Json& j) { j["tensors"][0]["address"] = 0xffffffc0u; }, "tensors[0].address",
                 "passes the 32-bit bank address space");
  expect_refused([](Json& j) { j["tensors"][0]["address"] = -64; }, "tensors[0].address", "");
  expect_refused([](Json& j) { j["tensors"][2]["address"] = kL1Bytes - 4088; }, "tensors[2].address",
                 "is not 16 B aligned");
  expect_refused([](Json& j) { j["tensors"][2]["address"] = kL1CbBase - 16; }, "tensors[2].address",
                 "is outside usable L1");
  expect_refused([](Json& j) { j["tensors"][2]["address"] = kL1Bytes - 2048; }, "tensors[2].address",
                 "is outside usable L1");
  // a takes 2048 B in each bank (8 pages of 2048 B, one a bank)
  expect_refused([](Json& j) {
    j["tensors"][0]["address"] = 64;
    j["tensors"][1]["address"] = 64 + 1024;
  }, "tensors[1].address", "[0x440, 0x1440) overlaps tensors[0] (\"a\") at [0x40, 0x840) in the DRAM banks");
  expect_refused([](Json& j) {
    j["tensors"][2]["address"] = kL1Bytes - 4096;
    j["tensors"].push_back({{"name", "y"}, {"memory", "l1_interleaved"}, {"layout", "tile"},
                            {"data_format", "bfloat16"}, {"shape", {32, 32}}, {"address", kL1Bytes - 2048}});
  }, "tensors[4].address", "overlaps tensors[2] ('x')");
  // x on cores (0,0)..(3,0), where the CBs reach offset kL1CbBase + 12 KiB
  expect_refused([](Json& j) { j["tensors"][2]["address"] = kL1CbBase + 4096; }, "cbs[1].total_size",
                 "held by L1 tensors");
}

TEST_F(Descriptor, PlainJsonKeepsNameOrder) {
  const ProgramDescriptor p = parse_descriptor(nlohmann::json(valid_descriptor()), dir_.path() / "program.json");
  using Named = std::vector<std::pair<std::string, uint32_t>>;
  EXPECT_EQ(p.kernels[0].named_compile_time_args, (Named{{"block", 2}, {"num_tiles", 8}}));
}

TEST(DataFormats, NamesAndTileSizes) {
  const std::pair<const char*, const char*> names[] = {{"Float32", "float32"}, {"Float16_b", "bfloat16"},
                                                       {"Bfp8_b", "bfloat8_b"}, {"UInt32", "uint32"},
                                                       {"UInt16", "uint16"},   {"Int32", "int32"},
                                                       {"UInt8", "uint8"}};
  const uint32_t sizes[] = {4096, 2048, 1088, 4096, 2048, 4096, 1024};
  for (size_t i = 0; i < 7; ++i) {
    const auto metal = parse_data_format(names[i].first);
    ASSERT_TRUE(metal.has_value()) << names[i].first;
    EXPECT_EQ(parse_data_format(names[i].second), metal);
    EXPECT_EQ(data_format_name(*metal), names[i].first);
    EXPECT_EQ(tile_size(*metal), sizes[i]);
  }
  EXPECT_FALSE(parse_data_format("bfloat17").has_value());
  EXPECT_FALSE(parse_data_format("BFLOAT16").has_value());
}

TEST(CoresOf, RowMajorWithoutDuplicates) {
  const CoreRangeSet set = {{{2, 1}, {3, 2}}, {{0, 0}, {1, 0}}};
  const std::vector<emu::CoreCoord> expected = {{0, 0}, {1, 0}, {2, 1}, {3, 1}, {2, 2}, {3, 2}};
  EXPECT_EQ(cores_of(set), expected);
  EXPECT_EQ(cores_of({{{0, 0}, {10, 9}}}).size(), emu::kNumCores);
}

// ---- the file itself ----

TEST_F(Descriptor, MissingFileIsNotFound) {
  const std::string missing = (dir_.path() / "nope.json").string();
  EXPECT_THROW(read_descriptor(missing), NotFound);
  EXPECT_EQ(error_of([&] { read_descriptor(missing); }), missing + ": no such descriptor file");
}

TEST_F(Descriptor, TextThatIsNotJsonIsRefused) {
  const std::filesystem::path file = dir_.path() / "program.json";
  std::ofstream(file) << "{\"name\": \"x\",\n \"kernels\": [}";
  const std::string error = error_of([&] { read_descriptor(file); });
  EXPECT_EQ(error.rfind(file.string() + ": not valid JSON: parse error at line 2", 0), 0u) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST_F(Descriptor, NumbersTooLargeForADoubleAreRefused) {
  // nlohmann reports this one as out_of_range, not as a parse error.
  const std::string error = error_of([&] { parse_descriptor_text("{\"kernels\": 1e999}", "program.json"); });
  EXPECT_EQ(error, "program.json: not valid JSON: number overflow parsing '1e999'");
}

TEST_F(Descriptor, DeepNestingIsRefused) {
  const std::string text = std::string(100, '[') + std::string(100, ']');
  EXPECT_NE(error_of([&] { parse_descriptor_text(text, "program.json"); }).find("nests deeper"), std::string::npos);
}

TEST_F(Descriptor, RootThatIsNotAnObjectIsRefused) {
  const std::string error = error_of([&] { parse_descriptor_text("[1, 2]", "program.json"); });
  EXPECT_EQ(error, "program.json: expected an object, got [1,2]");
}

// ---- unknown keys, wrong types, missing fields ----

TEST_F(Descriptor, UnknownKeysAreRefused) {
  expect_refused([](Json& j) { j["kernel"] = Json::array(); }, "kernel", "unknown field (known: $schema, name,");
  expect_refused([](Json& j) { j["kernels"][1]["confg"] = Json::object(); }, "kernels[1].confg", "unknown field");
  expect_refused([](Json& j) { j["kernels"][0]["config"]["noc"] = 1; }, "kernels[0].config.noc",
                 "unknown field (known: type)");
  expect_refused([](Json& j) { j["kernels"][2]["config"]["dst_full_sync_en"] = true; },
                 "kernels[2].config.dst_full_sync_en", "unknown field");
  expect_refused([](Json& j) { j["tensors"][0]["dtype"] = "bfloat16"; }, "tensors[0].dtype", "unknown field");
  expect_refused([](Json& j) { j["cbs"][0]["core_ranges"][0]["stop"] = core(0, 0); }, "cbs[0].core_ranges[0].stop",
                 "unknown field (known: start, end)");
  expect_refused([](Json& j) { j["semaphores"][0]["value"] = 1; }, "semaphores[0].value", "unknown field");
  expect_refused([](Json& j) { j["kernels"][0]["runtime_args"][0]["args"][0]["address"] = "a"; },
                 "kernels[0].runtime_args[0].args[0].address", "unknown field (known: address_of)");
  expect_refused([](Json& j) { j["kernels"][0]["odd key"] = 1; }, "kernels[0][\"odd key\"]", "unknown field");
}

TEST_F(Descriptor, WrongTypesAreRefused) {
  expect_refused([](Json& j) { j["kernels"][0]["core_ranges"] = "all"; }, "kernels[0].core_ranges",
                 "expected an array, got \"all\"");
  expect_refused([](Json& j) { j["tensors"][0]["shape"] = "64x128"; }, "tensors[0].shape", "expected an array");
  expect_refused([](Json& j) { j["kernels"][0]["runtime_args"][0]["args"][1] = "8"; },
                 "kernels[0].runtime_args[0].args[1]", "expected an integer in 0..4294967295, got \"8\"");
  expect_refused([](Json& j) { j["kernels"][0]["common_runtime_args"][1] = -1; }, "kernels[0].common_runtime_args[1]",
                 "expected an integer in 0..4294967295, got -1");
  expect_refused([](Json& j) { j["kernels"][0]["compile_time_args"][0] = 4294967296u; },
                 "kernels[0].compile_time_args[0]", "expected an integer");
  expect_refused([](Json& j) { j["kernels"][0]["compile_time_args"][0] = 1.5; }, "kernels[0].compile_time_args[0]",
                 "got 1.5");
  expect_refused([](Json& j) { j["kernels"][2]["config"]["fp32_dest_acc_en"] = 1; },
                 "kernels[2].config.fp32_dest_acc_en", "expected true or false, got 1");
  expect_refused([](Json& j) { j["kernels"][0]["kernel_source"] = 3; }, "kernels[0].kernel_source", "expected a string");
  expect_refused([](Json& j) { j["kernels"][0]["defines"]["A_FLAG"] = 1; }, "kernels[0].defines.A_FLAG",
                 "expected a string");
  expect_refused([](Json& j) { j["kernels"][0]["config"] = "reader"; }, "kernels[0].config", "expected an object");
  expect_refused([](Json& j) { j["kernels"][0]["config"]["type"] = "dataflow"; }, "kernels[0].config.type",
                 "expected one of \"reader\", \"writer\", \"data_movement\", \"compute\", got \"dataflow\"");
  expect_refused([](Json& j) { j["kernels"][3]["config"]["processor"] = "brisc"; }, "kernels[3].config.processor",
                 "expected one of \"riscv_0\", \"riscv_1\"");
  expect_refused([](Json& j) { j["kernels"][3]["config"]["noc"] = 2; }, "kernels[3].config.noc",
                 "expected an integer in 0..1, got 2");
  expect_refused([](Json& j) { j["kernels"][2]["config"]["math_fidelity"] = "HiFi5"; },
                 "kernels[2].config.math_fidelity", "expected one of \"LoFi\"");
  expect_refused([](Json& j) { j["kernels"][2]["config"]["unpack_to_dest_mode"]["0"] = "Fp32"; },
                 "kernels[2].config.unpack_to_dest_mode[\"0\"]", "expected one of \"Default\", \"UnpackToDestFp32\"");
  expect_refused([](Json& j) { j["kernels"][2]["config"]["unpack_to_dest_mode"]["64"] = "Default"; },
                 "kernels[2].config.unpack_to_dest_mode[\"64\"]", "\"64\" is not a CB id");
  expect_refused([](Json& j) { j["kernels"][0]["core_ranges"][0]["start"] = Json::array({0, 0, 0}); },
                 "kernels[0].core_ranges[0].start", "expected a core [x, y]");
  expect_refused([](Json& j) { j["name"] = ""; }, "name", "is empty");
}

TEST_F(Descriptor, MissingFieldsAreRefused) {
  expect_refused([](Json& j) { j.erase("kernels"); }, "kernels", "is missing");
  expect_refused([](Json& j) { j["kernels"] = Json::array(); }, "kernels", "is empty");
  expect_refused([](Json& j) { j["kernels"][0].erase("kernel_source"); }, "kernels[0].kernel_source", "is missing");
  expect_refused([](Json& j) { j["kernels"][0].erase("core_ranges"); }, "kernels[0].core_ranges", "is missing");
  expect_refused([](Json& j) { j["kernels"][0].erase("config"); }, "kernels[0].config", "is missing");
  expect_refused([](Json& j) { j["kernels"][0]["config"].erase("type"); }, "kernels[0].config.type", "is missing");
  expect_refused([](Json& j) { j["kernels"][0]["runtime_args"][0].erase("args"); }, "kernels[0].runtime_args[0].args",
                 "is missing");
  expect_refused([](Json& j) { j["kernels"][0]["core_ranges"][0].erase("end"); }, "kernels[0].core_ranges[0].end",
                 "is missing");
  expect_refused([](Json& j) { j["tensors"][0].erase("memory"); }, "tensors[0].memory", "is missing");
  expect_refused([](Json& j) { j["tensors"][0].erase("data_format"); }, "tensors[0].data_format", "is missing");
  expect_refused([](Json& j) { j["tensors"][2].erase("cores"); }, "tensors[2].cores", "is missing");
  expect_refused([](Json& j) { j["tensors"][2].erase("shard_size"); }, "tensors[2].shard_size", "is missing");
  expect_refused([](Json& j) { j["cbs"][0].erase("total_size"); }, "cbs[0].total_size", "is missing");
  expect_refused([](Json& j) { j["cbs"][0]["format_descriptors"][0].erase("page_size"); },
                 "cbs[0].format_descriptors[0].page_size", "is missing");
  expect_refused([](Json& j) { j["cbs"][0]["format_descriptors"] = Json::array(); }, "cbs[0].format_descriptors",
                 "is empty");
  expect_refused([](Json& j) { j["semaphores"][0].erase("id"); }, "semaphores[0].id", "is missing");
}

// ---- cores ----

TEST_F(Descriptor, CoresOffTheGridAreRefused) {
  expect_refused([](Json& j) { j["kernels"][1]["core_ranges"][0]["end"] = core(11, 0); },
                 "kernels[1].core_ranges[0].end", "core (11,0) is off the 11x10 grid");
  expect_refused([](Json& j) { j["semaphores"][1]["core_ranges"][0]["start"] = core(0, 10); },
                 "semaphores[1].core_ranges[0].start", "core (0,10) is off the 11x10 grid");
  expect_refused([](Json& j) { j["kernels"][0]["runtime_args"][0]["core"] = core(0, 4000000000u); },
                 "kernels[0].runtime_args[0].core", "is off the 11x10 grid");
}

TEST_F(Descriptor, StartPastEndIsRefused) {
  expect_refused([](Json& j) { j["cbs"][0]["core_ranges"][0] = range(1, 0, 0, 1); }, "cbs[0].core_ranges[0]",
                 "start (1,0) is past end (0,1)");
}

TEST_F(Descriptor, OverlappingRangesInOneSetAreRefused) {
  expect_refused([](Json& j) { j["kernels"][2]["core_ranges"][1] = range(1, 0, 1, 1); },
                 "kernels[2].core_ranges[1]", "overlaps core_ranges[0] at core (1,0)");
  expect_refused([](Json& j) { j["tensors"][2]["cores"].push_back(range(3, 0, 3, 0)); }, "tensors[2].cores[1]",
                 "overlaps cores[0] at core (3,0)");
}

// ---- kernels ----

TEST_F(Descriptor, KernelSourceMissingOnDiskIsRefused) {
  expect_refused([](Json& j) { j["kernels"][1]["kernel_source"] = "kernels/writr.cpp"; }, "kernels[1].kernel_source",
                 "\"kernels/writr.cpp\" is not a file (looked for ");
  expect_refused([](Json& j) { j["kernels"][1]["kernel_source"] = "kernels"; }, "kernels[1].kernel_source",
                 "is not a file");
  expect_refused([](Json& j) { j["kernels"][1]["kernel_source"] = ""; }, "kernels[1].kernel_source",
                 "expected the path of a kernel source file");
}

TEST_F(Descriptor, KernelSourceResolvesAgainstTheDescriptorsFolder) {
  std::filesystem::create_directories(dir_.path() / "sub");
  const std::filesystem::path file = dir_.path() / "sub" / "program.json";
  Json json = valid_descriptor();
  for (Json& kernel : json["kernels"]) kernel["kernel_source"] = "../" + kernel["kernel_source"].get<std::string>();
  std::ofstream(file) << json.dump();
  EXPECT_EQ(read_descriptor(file).kernels[1].source_path, dir_.path() / "kernels" / "writer.cpp");
}

TEST_F(Descriptor, TwoKernelsOnOneProcessorOfACoreAreRefused) {
  // A data_movement kernel on riscv_1 where the reader runs.
  expect_refused(
      [](Json& j) {
        j["kernels"][3]["config"]["processor"] = "riscv_1";
        j["kernels"][3]["core_ranges"][0] = range(1, 1, 2, 1);
      },
                 "kernels[3].core_ranges[0]", "core (1,1) already runs kernels[0] on riscv_1 (NCRISC)");
  // A second writer (riscv_0) on (1,0).
  expect_refused(
      [](Json& j) {
        j["kernels"].push_back(j["kernels"][1]);
        j["kernels"][4]["core_ranges"] = {range(1, 0, 1, 0)};
      },
                 "kernels[4].core_ranges[0]", "core (1,0) already runs kernels[1] on riscv_0 (BRISC)");
  // A second compute kernel.
  expect_refused([](Json& j) { j["kernels"].push_back(j["kernels"][2]); }, "kernels[4].core_ranges[0]",
                 "core (0,0) already runs kernels[2] on the compute processor");
}

TEST_F(Descriptor, ReaderAndWriterShareACore) {
  // Different processors of one core (and two data_movement kernels on riscv_0 and riscv_1) are fine.
  Json json = valid_descriptor();
  json["kernels"].push_back({{"kernel_source", "kernels/writer.cpp"},
                             {"core_ranges", {range(2, 0, 3, 0)}},
                             {"config", {{"type", "data_movement"}, {"processor", "riscv_1"}}}});
  EXPECT_EQ(read(json).kernels.size(), 5u);
}

TEST_F(Descriptor, RuntimeArgsOutsideTheKernelOrTwiceAreRefused) {
  expect_refused([](Json& j) { j["kernels"][0]["runtime_args"][1]["core"] = core(2, 0); },
                 "kernels[0].runtime_args[1].core", "core (2,0) is not one of the kernel's core_ranges");
  expect_refused([](Json& j) { j["kernels"][0]["runtime_args"][1]["core"] = core(0, 0); },
                 "kernels[0].runtime_args[1].core", "core (0,0) already has its args in runtime_args[0]");
}

TEST_F(Descriptor, TooManyRuntimeArgWordsAreRefused) {
  // 341 words a core: its own and the common ones together.
  Json json = valid_descriptor();
  json["kernels"][0]["runtime_args"][1]["args"] = Json(std::vector<uint32_t>(kMaxRtArgsPerCore - 2, 1));
  EXPECT_NO_THROW(read(json));
  expect_refused([](Json& j) { j["kernels"][0]["runtime_args"][1]["args"] = Json(std::vector<uint32_t>(340, 1)); },
                 "kernels[0].runtime_args[1].args",
                 "340 words and 2 common_runtime_args words on core (1,1) are 342, over the 341");
  expect_refused([](Json& j) { j["kernels"][1]["common_runtime_args"] = Json(std::vector<uint32_t>(342, 1)); },
                 "kernels[1].common_runtime_args", "342 words are over the 341");
}

TEST_F(Descriptor, ArgsNamingNoTensorAreRefused) {
  expect_refused([](Json& j) { j["kernels"][0]["runtime_args"][0]["args"][0]["address_of"] = "b"; },
                 "kernels[0].runtime_args[0].args[0].address_of", "no tensor named \"b\"");
  expect_refused([](Json& j) { j["kernels"][0]["common_runtime_args"][0]["address_of"] = "outs"; },
                 "kernels[0].common_runtime_args[0].address_of", "no tensor named \"outs\"");
  expect_refused([](Json& j) { j["kernels"][0]["compile_time_args"][1]["tensor_accessor_args"] = "z"; },
                 "kernels[0].compile_time_args[1].tensor_accessor_args", "no tensor named \"z\"");
}

TEST_F(Descriptor, BadDefinesAndArgNamesAreRefused) {
  expect_refused([](Json& j) { j["kernels"][0]["defines"]["NOC_INDEX"] = "1"; }, "kernels[0].defines.NOC_INDEX",
                 "tt-metal's JIT defines NOC_INDEX itself");
  expect_refused([](Json& j) { j["kernels"][0]["defines"]["2X"] = "1"; }, "kernels[0].defines[\"2X\"]",
                 "\"2X\" is not a macro name");
  expect_refused([](Json& j) { j["kernels"][0]["defines"]["F(1)"] = ""; }, "kernels[0].defines[\"F(1)\"]",
                 "\"F(1)\" is not a macro name");
  expect_refused([](Json& j) { j["kernels"][0]["defines"]["F(a"] = ""; }, "kernels[0].defines[\"F(a\"]",
                 "is not a macro name");
  expect_refused([](Json& j) { j["kernels"][0]["defines"]["X"] = "1\n#include <x>"; }, "kernels[0].defines.X",
                 "contains a control character");
  expect_refused([](Json& j) { j["kernels"][0]["named_compile_time_args"]["a\"b"] = 1; },
                 "kernels[0].named_compile_time_args[\"a\\\"b\"]", "is not a C identifier");
}

// A function-like macro, as ttnn's binary_ng factory defines PROCESS_LHS_ACTIVATIONS(i): its name and
// parameter list reach the compiler's -D as written.
TEST_F(Descriptor, FunctionLikeDefinesAreAccepted) {
  Json j = valid_descriptor();
  j["kernels"][0]["defines"]["PROCESS_LHS_ACTIVATIONS(i)"] = "";
  j["kernels"][0]["defines"]["MIX(a, b)"] = "((a) + (b))";
  const ProgramDescriptor p = read(j);
  const auto& defines = p.kernels[0].defines;
  EXPECT_NE(std::find(defines.begin(), defines.end(), std::pair<std::string, std::string>{"PROCESS_LHS_ACTIVATIONS(i)", ""}),
            defines.end());
  EXPECT_NE(std::find(defines.begin(), defines.end(), std::pair<std::string, std::string>{"MIX(a, b)", "((a) + (b))"}),
            defines.end());
}

// ---- CBs ----

TEST_F(Descriptor, UnknownDataFormatsAreRefused) {
  expect_refused([](Json& j) { j["cbs"][0]["format_descriptors"][0]["data_format"] = "bfloat17"; },
                 "cbs[0].format_descriptors[0].data_format", "unknown data format \"bfloat17\"");
  expect_refused([](Json& j) { j["tensors"][0]["data_format"] = "Float16"; }, "tensors[0].data_format",
                 "unknown data format \"Float16\"");
}

TEST_F(Descriptor, BadCbIdsAreRefused) {
  expect_refused([](Json& j) { j["cbs"][0]["format_descriptors"][0]["buffer_index"] = 64; },
                 "cbs[0].format_descriptors[0].buffer_index", "expected an integer in 0..63, got 64");
  expect_refused([](Json& j) { j["cbs"][1]["format_descriptors"][1]["buffer_index"] = 16; },
                 "cbs[1].format_descriptors[1].buffer_index", "CB 16 is also format_descriptors[0]");
  expect_refused([](Json& j) { j["cbs"][2]["format_descriptors"][0]["buffer_index"] = 0; },
                 "cbs[2].format_descriptors[0].buffer_index", "CB 0 on core (0,0) is also cbs[0]");
}

TEST_F(Descriptor, ACbMayCarryAName) {
  Json j = valid_descriptor();
  j["cbs"][0]["name"] = "cb_in";
  EXPECT_EQ(read(j).cbs[0].name, "cb_in");
  EXPECT_EQ(read(valid_descriptor()).cbs[0].name, "");
  expect_refused([](Json& d) { d["cbs"][0]["name"] = ""; }, "cbs[0].name", "");
}

TEST_F(Descriptor, BadCbSizesAreRefused) {
  expect_refused([](Json& j) { j["cbs"][0]["format_descriptors"][0]["page_size"] = 0; },
                 "cbs[0].format_descriptors[0].page_size", "0 does not divide the CB's total_size 4096");
  expect_refused([](Json& j) { j["cbs"][0]["total_size"] = 4000; }, "cbs[0].format_descriptors[0].page_size",
                 "2048 does not divide the CB's total_size 4000");
  expect_refused([](Json& j) { j["cbs"][0]["total_size"] = 0; }, "cbs[0].total_size", "is 0");
}

TEST_F(Descriptor, CbsOverflowingL1AreRefused) {
  // (0,0) holds cbs[0] and cbs[1] (12 KiB) and a 4 KiB shard: 1427 KiB - 16 KiB are left.
  const uint32_t left = kL1UsableBytes - 16 * 1024;
  Json json = valid_descriptor();
  json["cbs"].push_back({{"total_size", left},
                         {"core_ranges", {range(0, 0, 0, 0)}},
                         {"format_descriptors", {{{"buffer_index", 9}, {"data_format", "uint8"}, {"page_size", 32}}}}});
  EXPECT_NO_THROW(read(json));
  expect_refused(
      [&](Json& j) {
        j = json;
        j["cbs"][3]["total_size"] = left + 32;
      },
      "cbs[3].total_size",
                 "the CBs on core (0,0) need L1 up to offset 1568800, past the 1461248 B usable from 111616 up "
                 "(1427 KiB, 4096 B of it held by L1 tensors)");
  expect_refused(
      [](Json& j) {
        j["cbs"].push_back({{"total_size", kL1UsableBytes},
                            {"core_ranges", {range(9, 9, 10, 9)}},
                            {"format_descriptors", {{{"buffer_index", 9}, {"data_format", "uint8"}, {"page_size", 32}}}}});
        j["cbs"].push_back({{"total_size", 32},
                            {"core_ranges", {range(10, 9, 10, 9)}},
                            {"format_descriptors", {{{"buffer_index", 10}, {"data_format", "uint8"}, {"page_size", 32}}}}});
      },
      "cbs[4].total_size", "the CBs on core (10,9) need L1 up to offset 1572896");
}

TEST_F(Descriptor, ShardedTensorsTakeL1) {
  Json json = valid_descriptor();
  // A 1 MiB shard on (0,0) leaves 1427 KiB - 1 MiB - the 4 KiB of x for CBs there.
  json["tensors"].push_back({{"name", "big"}, {"memory", "l1_sharded"}, {"layout", "row_major"},
                             {"data_format", "uint8"}, {"shape", {1024, 1024}}, {"cores", {range(0, 0, 0, 0)}},
                             {"shard_size", 1 << 20}});
  EXPECT_NO_THROW(read(json));
  const L1Layout layout = l1_layout(read(json));
  EXPECT_EQ(layout.shard_addresses.at("big"), kL1Bytes - 4096 - (1 << 20));
  expect_refused(
      [&](Json& j) {
        j = json;
        j["cbs"][1]["total_size"] = 1 << 19;
        j["cbs"][1]["format_descriptors"].erase(1);
      },
                 "cbs[1].total_size", "(1427 KiB, 1052672 B of it held by L1 tensors)");
  expect_refused(
      [&](Json& j) {
        j = json;
        j["tensors"][4]["shape"] = {1024, 1536};
        j["tensors"][4]["shard_size"] = 1536 * 1024;
      },
      "tensors[4].shard_size", "the L1 tensors on core (0,0) need 1576960 B, more than the 1461248 B");
}

TEST_F(Descriptor, BadTensorBackedCbsAreRefused) {
  expect_refused([](Json& j) { j["cbs"][2]["tensor"] = "a"; }, "cbs[2].tensor",
                 "tensor \"a\" is in DRAM: only an l1_sharded tensor backs a CB");
  expect_refused([](Json& j) { j["cbs"][2]["tensor"] = "y"; }, "cbs[2].tensor", "no tensor named \"y\"");
  expect_refused([](Json& j) { j["cbs"][2]["total_size"] = 2048; }, "cbs[2].tensor",
                 "the CB's total_size 2048 is not the shard_size 4096 of tensor \"x\"");
  expect_refused([](Json& j) { j["cbs"][2]["core_ranges"][0] = range(0, 0, 2, 0); }, "cbs[2].tensor",
                 "the CB's cores are not the cores of tensor \"x\"");
}

// ---- semaphores ----

TEST_F(Descriptor, BadSemaphoreIdsAreRefused) {
  expect_refused([](Json& j) { j["semaphores"][0]["id"] = 16; }, "semaphores[0].id", "expected an integer in 0..15, got 16");
  expect_refused([](Json& j) { j["semaphores"][1]["id"] = 0; }, "semaphores[1].id",
                 "semaphore 0 on core (0,0) is also semaphores[0]");
}

// ---- tensors ----

TEST_F(Descriptor, DuplicateTensorNamesAreRefused) {
  expect_refused([](Json& j) { j["tensors"][3]["name"] = "a"; }, "tensors[3].name", "\"a\" is also the name of tensors[0]");
  expect_refused([](Json& j) { j["tensors"][3]["name"] = ""; }, "tensors[3].name", "is empty");
  expect_refused([](Json& j) { j["tensors"][3]["output"] = "out/out.npy"; }, "tensors[3].output",
                 "\"out/out.npy\" is also the output of tensors[1]");
}

TEST_F(Descriptor, BadShapesAreRefused) {
  expect_refused([](Json& j) { j["tensors"][0]["shape"] = Json::array(); }, "tensors[0].shape", "has 0 dims");
  expect_refused([](Json& j) { j["tensors"][0]["shape"] = {64}; }, "tensors[0].shape", "has 1 dims");
  expect_refused([](Json& j) { j["tensors"][3]["shape"] = {4, 0}; }, "tensors[3].shape[1]", "is 0");
  expect_refused([](Json& j) { j["tensors"][0]["shape"] = {64, 100}; }, "tensors[0].shape[1]",
                 "100 is not a multiple of 32");
  expect_refused([](Json& j) { j["tensors"][0]["shape"] = {48, 128}; }, "tensors[0].shape[0]",
                 "48 is not a multiple of 32");
  expect_refused([](Json& j) { j["tensors"][3]["shape"] = {65536, 65536, 65536}; }, "tensors[3].shape",
                 "more than the 32 GiB of DRAM");
  // Only the last two dims of a tile tensor are tiles; row_major dims are free.
  Json json = valid_descriptor();
  json["tensors"][0]["shape"] = {3, 64, 128};
  json["tensors"][3]["shape"] = {3, 5};
  EXPECT_NO_THROW(read(json));
}

TEST_F(Descriptor, BadPageSizesAreRefused) {
  expect_refused([](Json& j) { j["tensors"][0]["page_size"] = 0; }, "tensors[0].page_size",
                 "0 does not divide the tensor's 16384 B");
  expect_refused([](Json& j) { j["tensors"][0]["page_size"] = 3000; }, "tensors[0].page_size",
                 "3000 does not divide the tensor's 16384 B into whole pages");
}

TEST_F(Descriptor, BadShardsAreRefused) {
  expect_refused([](Json& j) { j["tensors"][2]["shard_size"] = 2048; }, "tensors[2].shard_size",
                 "4 cores x 2048 B hold 8192 B, less than the tensor's 16384 B");
  expect_refused([](Json& j) { j["tensors"][2]["shard_size"] = 5000; }, "tensors[2].shard_size",
                 "5000 is not a positive multiple of the page_size 2048");
  expect_refused([](Json& j) { j["tensors"][0]["cores"] = {range(0, 0, 0, 0)}; }, "tensors[0].cores",
                 "only an l1_sharded or dram_sharded tensor has cores");
  expect_refused([](Json& j) { j["tensors"][0]["shard_size"] = 2048; }, "tensors[0].shard_size",
                 "only an l1_sharded or dram_sharded tensor has shard_size");
}

TEST_F(Descriptor, DramShardsLieOnTheFirstBanks) {
  auto dram_sharded = [](Json cores, Json page_size) {
    return [=](Json& j) {
      j["cbs"][2].erase("tensor");  // a DRAM tensor backs no CB
      j["tensors"][2]["memory"] = "dram_sharded";
      j["tensors"][2]["cores"] = cores;
      if (!page_size.is_null()) j["tensors"][2]["page_size"] = page_size;
    };
  };
  Json json = valid_descriptor();
  dram_sharded({range(0, 0, 3, 0)}, nullptr)(json);
  const ProgramDescriptor d = read(json);
  EXPECT_EQ(d.tensors[2].memory, TensorMemory::dram_sharded);
  expect_refused(dram_sharded({range(1, 0, 4, 0)}, nullptr), "tensors[2].cores",
                 "a dram_sharded tensor's cores are DRAM banks 0..n-1 as (bank, 0), n <= 8; (1, 0) is not bank 0");
  expect_refused(dram_sharded({range(0, 0, 8, 0)}, nullptr), "tensors[2].cores", "(8, 0) is not bank 8");
  expect_refused(dram_sharded({range(0, 0, 3, 0)}, 32), "tensors[2].page_size",
                 "a dram_sharded tensor's page_size 32 is not a multiple of 64 B");
}

TEST_F(Descriptor, ShardedTensorsTakeAPageGrid) {
  Json json = valid_descriptor();
  json["tensors"][2]["tensor_pages"] = {1, 8};  // x: 8 tiles in a row, shards of 2
  json["tensors"][2]["shard_pages"] = {1, 2};
  const ProgramDescriptor d = read(json);
  EXPECT_EQ(d.tensors[2].tensor_pages, (std::vector<uint32_t>{1, 8}));
  EXPECT_EQ(d.tensors[2].shard_pages, (std::vector<uint32_t>{1, 2}));
  auto with = [](Json tensor_pages, Json shard_pages) {
    return [=](Json& j) {
      j["tensors"][2]["tensor_pages"] = tensor_pages;
      j["tensors"][2]["shard_pages"] = shard_pages;
    };
  };
  expect_refused([](Json& j) { j["tensors"][2]["tensor_pages"] = {1, 8}; }, "tensors[2]",
                 "tensor_pages and shard_pages come together");
  expect_refused(with({1, 8}, {2}), "tensors[2].shard_pages", "has rank 1, tensor_pages rank 2");
  expect_refused(with({1, 8}, {1, 3}), "tensors[2].shard_pages",
                 "does not cut the tensor's 8 pages in dimension 1 into whole shards");
  expect_refused(with({2, 8}, {1, 2}), "tensors[2].tensor_pages", "16 pages of 2048 B are not the tensor's 16384 B");
  expect_refused(with({1, 8}, {1, 1}), "tensors[2].shard_pages", "1 pages of 2048 B are not the shard_size 4096");
  expect_refused(with({1, 8}, {1, 0}), "tensors[2].shard_pages[1]", "an extent in pages is positive");
  expect_refused([](Json& j) { j["tensors"][0]["tensor_pages"] = {8}; }, "tensors[0].tensor_pages",
                 "only an l1_sharded or dram_sharded tensor has tensor_pages");
}

TEST(ShardOrder, PagesGoToTheirShardsAndBack) {
  // two rows of four bytes, pages of two bytes, sharded by width: shard 0 holds each row's first page
  TensorDescriptor t;
  t.memory = TensorMemory::l1_sharded;
  t.layout = TensorLayout::row_major;
  t.data_format = DataFormat::uint8;
  t.shape = {2, 4};
  t.page_size = 2;
  t.shard_size = 4;
  std::vector<std::byte> bytes;
  for (int i = 0; i < 8; ++i) bytes.push_back(std::byte(i));
  EXPECT_EQ(bytes_in_shard_order(t, bytes), bytes);  // no page grid: as they are
  t.tensor_pages = {2, 2};
  t.shard_pages = {2, 1};
  std::vector<std::byte> shards;
  for (int i : {0, 1, 4, 5, 2, 3, 6, 7}) shards.push_back(std::byte(i));
  EXPECT_EQ(bytes_in_shard_order(t, bytes), shards);
  EXPECT_EQ(bytes_in_page_order(t, shards), bytes);
}

TEST_F(Descriptor, UnknownMemoryAndLayoutAreRefused) {
  expect_refused([](Json& j) { j["tensors"][0]["memory"] = "dram_banked"; }, "tensors[0].memory",
                 "expected one of \"dram_interleaved\", \"l1_interleaved\", \"l1_sharded\", \"dram_sharded\", "
                 "got \"dram_banked\"");
  expect_refused([](Json& j) { j["tensors"][0]["layout"] = "TILE"; }, "tensors[0].layout",
                 "expected one of \"tile\", \"row_major\", got \"TILE\"");
  expect_refused([](Json& j) { j["tensors"][3]["data_format"] = "bfloat8_b"; }, "tensors[3].data_format",
                 "Bfp8_b is a block format of tiles: a row_major tensor cannot hold it");
}

TEST_F(Descriptor, InputsThatAreNotNpyAreRefused) {
  expect_refused([](Json& j) { j["tensors"][0]["input"] = "a.npz"; }, "tensors[0].input",
                 "expected the path of a .npy file, got \"a.npz\"");
  expect_refused([](Json& j) { j["tensors"][1]["output"] = ".npy"; }, "tensors[1].output",
                 "expected the path of a .npy file");
  expect_refused([](Json& j) { j["tensors"][0]["input"] = Json::array({"a.npy"}); }, "tensors[0].input",
                 "expected a string");
}

}  // namespace
}  // namespace ditmk::tt::dialect
