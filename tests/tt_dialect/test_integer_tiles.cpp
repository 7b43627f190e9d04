// Integer tiles (UInt32, Int32, UInt16, UInt8 in 32x32 tiles of 16x16 faces): moved bit-exactly by
// data movement through CBs and DMA; a compute call on a CB of them faults in one line, as the
// emulator's compute ops model only float tiles (docs/tt-dialect.md, "L1 buffers and integer tiles").
#include <gtest/gtest.h>

#include <cstring>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/host_api/host_api.hpp"
#include "ditmk/tt/program/tensor_codec.hpp"
#include "tt_dialect/descriptor_in_dir.hpp"

namespace ditmk::testing {
namespace {

using nlohmann::ordered_json;
using tt::dialect::DescriptorRun;

struct IntegerFormat {
  std::string name;     // ttnn's dtype name
  uint32_t tile_bytes;  // also the CB's page
  uint64_t modulus;     // values lie in [0, modulus), or are any int32 when 0
};

// [64, 96] (6 tiles) of values spread over the format's whole range, int32 as the codec reads them.
Tensor values_of(const IntegerFormat& format) {
  Tensor t(DType::I32, {64, 96});
  for (int64_t i = 0; i < t.numel(); ++i) {
    const uint32_t spread = uint32_t(i) * 2654435761u;  // Knuth's multiplicative hash: all bits vary
    t.data<int32_t>()[i] = format.modulus ? int32_t(spread % format.modulus) : int32_t(spread);
  }
  return t;
}

ordered_json tensor(const std::string& name, const std::string& memory, const std::string& dtype) {
  return {{"name", name}, {"memory", memory}, {"layout", "tile"}, {"data_format", dtype}, {"shape", {64, 96}}};
}

ordered_json one_core() { return ordered_json::array({{{"start", {0, 0}}, {"end", {0, 0}}}}); }

// copy_pages.cpp: the 6 tiles of `src` to `dst` through CB 0 of the format.
ordered_json loopback(const IntegerFormat& format, ordered_json src, ordered_json dst, const std::string& define) {
  src["input"] = "src.npy";
  dst["output"] = "dst.npy";
  ordered_json kernel = {
      {"kernel_source", l1_kernel("copy_pages.cpp")},
      {"core_ranges", one_core()},
      {"config", {{"type", "reader"}}},
      {"compile_time_args", {{{"tensor_accessor_args", "src"}}, {{"tensor_accessor_args", "dst"}}}},
      {"runtime_args", {{{"core", {0, 0}}, {"args", {{{"address_of", "src"}}, {{"address_of", "dst"}}, 6, 0}}}}}};
  if (!define.empty()) kernel["defines"] = {{define, "1"}};
  return {{"tensors", {src, dst}},
          {"kernels", {kernel}},
          {"cbs",
           {{{"total_size", 2 * format.tile_bytes},
             {"core_ranges", one_core()},
             {"format_descriptors",
              {{{"buffer_index", 0}, {"data_format", format.name}, {"page_size", format.tile_bytes}}}}}}}};
}

class IntegerTiles : public ::testing::TestWithParam<IntegerFormat> {};

TEST_P(IntegerTiles, DramLoopbackIsBitExact) {
  const IntegerFormat& format = GetParam();
  TempDir dir;
  const Tensor in = values_of(format);
  const ordered_json program =
      loopback(format, tensor("src", "dram_interleaved", format.name), tensor("dst", "dram_interleaved", format.name), "");
  const DescriptorRun run = run_in(dir, program, "src.npy", in);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  const Tensor out = io::read_npy(dir / "dst.npy");
  ASSERT_EQ(out.dtype(), DType::I32);
  ASSERT_EQ(out.nbytes(), in.nbytes());
  EXPECT_EQ(std::memcmp(out.bytes(), in.bytes(), in.nbytes()), 0);
}

// The source in L1, read through InterleavedAddrGen<false>; the destination an
// InterleavedAddrGenFast<true> whose page stride is the tile size of get_dataformat(cb).
TEST_P(IntegerTiles, L1LoopbackIsBitExact) {
  const IntegerFormat& format = GetParam();
  TempDir dir;
  const Tensor in = values_of(format);
  const DescriptorRun run = run_in(
      dir,
      loopback(format, tensor("src", "l1_interleaved", format.name), tensor("dst", "dram_interleaved", format.name),
               "L1_ADDRGEN"),
      "src.npy", in);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  const Tensor out = io::read_npy(dir / "dst.npy");
  ASSERT_EQ(out.nbytes(), in.nbytes());
  EXPECT_EQ(std::memcmp(out.bytes(), in.bytes(), in.nbytes()), 0);
}

INSTANTIATE_TEST_SUITE_P(Formats, IntegerTiles,
                         ::testing::Values(IntegerFormat{"int32", 4096, 0}, IntegerFormat{"uint32", 4096, 0},
                                           IntegerFormat{"uint16", 2048, 65536}, IntegerFormat{"uint8", 1024, 256}),
                         [](const auto& info) { return info.param.name; });

// Element (r, c) of a tile lies in face (r / 16) * 2 + c / 16, row-major within the face.
TEST(IntegerTileCodec, ElementsLieInFaceOrder) {
  tt::dialect::TensorDescriptor t;
  t.name = "t";
  t.layout = tt::dialect::TensorLayout::tile;
  t.data_format = tt::dialect::DataFormat::uint16;
  t.shape = {32, 64};
  t.page_size = 2048;
  Tensor values(DType::I32, {32, 64});
  for (int64_t i = 0; i < values.numel(); ++i) values.data<int32_t>()[i] = int32_t(i);  // r * 64 + c
  const std::vector<std::byte> bytes = tt::dialect::encode_tensor(t, values, "values");
  ASSERT_EQ(bytes.size(), 2u * 2048);
  auto at = [&](std::size_t position) {
    uint16_t v;
    std::memcpy(&v, &bytes[position * 2], 2);
    return v;
  };
  EXPECT_EQ(at(1), 1);             // (0, 1)
  EXPECT_EQ(at(16), 64);           // (1, 0): the face's second row
  EXPECT_EQ(at(256), 16);          // (0, 16): face 1
  EXPECT_EQ(at(512), 16 * 64);     // (16, 0): face 2
  EXPECT_EQ(at(768 + 16 + 1), 17 * 64 + 17);  // (17, 17): face 3, row 1, col 1
  EXPECT_EQ(at(1024), 32);         // (0, 32): the second tile
  const Tensor back = tt::dialect::decode_tensor(t, bytes);
  EXPECT_EQ(std::memcmp(back.bytes(), values.bytes(), values.nbytes()), 0);
}

TEST(IntegerTileCompute, ComputeOnAnIntegerCbIsOneLineFault) {
  tt::dialect::HostDevice device(std::filesystem::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  auto src = tt::dialect::CreateBuffer(device, {2 * 2048, 2048, tt::dialect::DataFormat::uint16, "src"});
  tt::dialect::EnqueueWriteBuffer(device, *src, std::vector<std::byte>(2 * 2048, std::byte{7}));
  tt::dialect::Program program = tt::dialect::CreateProgram();
  const tt::dialect::CoreRangeSet core = {{{0, 0}, {0, 0}}};
  const std::filesystem::path silicon = std::filesystem::path(ditmk::build::source_dir()) / "tests/tt_dialect/silicon_kernels";
  const auto reader =
      tt::dialect::CreateKernel(program, silicon / "read_pages.cpp", core, tt::dialect::ReaderDataMovementConfig{});
  tt::dialect::ComputeConfig compute;
  compute.compile_args = {2};
  tt::dialect::CreateKernel(program, silicon / "copy_pack.cpp", core, compute);
  for (uint32_t id : {0u, 16u})
    tt::dialect::CreateCircularBuffer(program, core,
                                      {.total_size = 4096,
                                       .buffer_index = id,
                                       .data_format = tt::dialect::DataFormat::uint16,
                                       .page_size = 2048});
  tt::dialect::SetRuntimeArgs(program, reader, {0, 0}, {src->address(), 2});
  const tt::emu::LaunchReport report = tt::dialect::EnqueueProgram(device, program);
  ASSERT_EQ(report.faults.size(), 1u);
  const std::string fault = tt::emu::to_string(report.faults[0]);
  EXPECT_EQ(report.faults[0].kind, tt::emu::FaultKind::bad_call) << fault;
  EXPECT_EQ(fault.find('\n'), std::string::npos) << fault;
  EXPECT_NE(fault.find("copy_pack.cpp on core (0,0) TRISC: copy_tile: cb 'cb0' #0 holds UInt16 tiles, which the "
                       "emulator's compute ops do not model"),
            std::string::npos)
      << fault;
}

// ---- the descriptor ----

TEST(IntegerTileDescriptor, UnknownDataFormatIsRefusedNamingTheField) {
  const IntegerFormat int32{"int32", 4096, 0};
  ordered_json program =
      loopback(int32, tensor("src", "dram_interleaved", "int64"), tensor("dst", "dram_interleaved", "int32"), "");
  try {
    tt::dialect::parse_descriptor(program, "program.json");
    FAIL() << "an int64 tensor was accepted";
  } catch (const Error& e) {
    const std::string error = e.what();
    EXPECT_NE(error.find("program.json: tensors[0].data_format: unknown data format \"int64\""), std::string::npos)
        << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  program["tensors"][0]["data_format"] = "int32";
  program["cbs"][0]["format_descriptors"][0]["data_format"] = "Int64";
  try {
    tt::dialect::parse_descriptor(program, "program.json");
    FAIL() << "an Int64 CB was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("program.json: cbs[0].format_descriptors[0].data_format: unknown data format"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ditmk::testing
