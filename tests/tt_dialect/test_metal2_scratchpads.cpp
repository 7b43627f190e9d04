// Two Metal 2.0 bindings of tt-metal's ProgramSpec beyond tensor::/dfb::/sem::: tensor binding
// sequences (tensor::inputs, a std::tuple of binding tokens, which concat's reader indexes) and
// scratchpads (scratch::pad, a private L1 region per core whose base address is a common runtime
// arg after the tensor bindings' words). The header's text, a kernel using both, and bad bindings
// as one line naming the field.
#include <gtest/gtest.h>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/jit/jit_defines.hpp"
#include "tt_dialect/descriptor_in_dir.hpp"

namespace ditmk::testing {
namespace {

using nlohmann::ordered_json;
using tt::dialect::kernel_bindings_header_text;

TEST(Metal2Scratchpads, HeaderIsTheGeneratedTokens) {
  const std::string text = kernel_bindings_header_text(
      {.tensors = {{.name = "in0", .cta_offset = 0, .addr_crta_offset = 0, .format = {0}},
                   {.name = "in1", .cta_offset = 2, .addr_crta_offset = 4, .format = {0}}},
       .tensor_sequences = {{"inputs", {"in1", "in0"}}},
       .scratchpads = {{.name = "pad", .crta_word = 2, .size = 2048}, {.name = "cache", .crta_word = 3, .size = 64}}},
      {}, false);
  // the sequence after its members' tokens, members in the order given
  EXPECT_NE(text.find("constexpr in1_t in1{"), std::string::npos) << text;
  EXPECT_LT(text.find("constexpr in1_t in1{"), text.find("constexpr std::tuple<in1_t, in0_t> inputs{in1, in0};\n"))
      << text;
  EXPECT_NE(text.find("#include <tuple>"), std::string::npos) << text;
  // scratchpads in declaration order: the address word, then the size
  EXPECT_NE(text.find("#include \"api/scratchpad.h\"\nnamespace"), std::string::npos) << text;
  EXPECT_NE(text.find("namespace scratch {\nconstexpr ScratchpadBindingToken pad{2u, 2048u};\n"
                      "constexpr ScratchpadBindingToken cache{3u, 64u};\n}"),
            std::string::npos)
      << text;
  // a kernel with only scratchpads still gets the header
  EXPECT_NE(kernel_bindings_header_text({.scratchpads = {{.name = "pad", .crta_word = 0, .size = 4}}}, {}, false),
            "");
}

ordered_json one_core() { return ordered_json::array({{{"start", {0, 0}}, {"end", {0, 0}}}}); }

ordered_json row_tensor(const std::string& name, int rows, const std::string& io) {
  return {{"name", name},         {"memory", "dram_interleaved"}, {"layout", "row_major"},
          {"data_format", "uint32"}, {"shape", {rows, 16}},          {io, name + ".npy"}};
}

ordered_json program() {
  const std::string kernel =
      (std::filesystem::path(ditmk::build::source_dir()) / "tests/tt_dialect/norm_kernels/metal2_sequences_scratchpads.cpp")
          .string();
  return {{"tensors", {row_tensor("a", 1, "input"), row_tensor("b", 1, "input"), row_tensor("dst", 3, "output")}},
          {"kernels",
           {{{"kernel_source", kernel},
             {"core_ranges", one_core()},
             {"config", {{"type", "writer"}}},
             {"runtime_arguments_schema",
              {{"named_runtime_args", ordered_json::array()}, {"named_common_runtime_args", {"scale"}}}},
             {"common_runtime_args", {17, 201}},
             {"tensor_bindings",
              {{{"name", "in0"}, {"tensor", "a"}}, {{"name", "dst"}, {"tensor", "dst"}}, {{"name", "in1"}, {"tensor", "b"}}}},
             {"tensor_binding_sequences", {{"inputs", {"in1", "in0"}}}},
             {"scratchpad_bindings", {{{"name", "pad"}, {"size", 64}}, {{"name", "spare"}, {"size", 96}}}}}}},
          {"cbs", ordered_json::array()},
          {"semaphores", ordered_json::array()}};
}

TEST(Metal2Scratchpads, AKernelReadsTheSequenceThroughItsScratchpad) {
  TempDir dir;
  Tensor a(DType::I32, {1, 16}), b(DType::I32, {1, 16});
  for (int i = 0; i < 16; ++i) {
    a.data<int32_t>()[i] = 1000 + i;
    b.data<int32_t>()[i] = 2000 + 3 * i;
  }
  io::write_npy(dir / "b.npy", b.view());
  const tt::dialect::DescriptorRun run = run_in(dir, program(), "a.npy", a);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  const Tensor out = io::read_npy(dir / "dst.npy");
  ASSERT_EQ(out.numel(), 48);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(out.data<int32_t>()[i], 2000 + 3 * i) << "inputs[0] is in1 (tensor b), word " << i;
    EXPECT_EQ(out.data<int32_t>()[16 + i], 1000 + i) << "inputs[1] is in0 (tensor a), word " << i;
  }
  // two members, pad's 64 B, spare's 96 B, spare above pad, vararg 0 past 1 + 3 + 2 words
  const int32_t expected[] = {2, 64, 96, 1, 201};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out.data<int32_t>()[32 + i], expected[i]) << "row 2 word " << i;
}

TEST(Metal2Scratchpads, BadBindingsAreOneLineNamingTheField) {
  auto expect = [](const ordered_json& json, const std::string& message) {
    EXPECT_NE(refusal(json).find(message), std::string::npos) << refusal(json);
  };
  ordered_json unknown = program();
  unknown["kernels"][0]["tensor_binding_sequences"]["inputs"][1] = "in2";
  expect(unknown, "kernels[0].tensor_binding_sequences.inputs[1]: \"in2\" is not one of the kernel's tensor_bindings");

  ordered_json twice = program();
  twice["kernels"][0]["tensor_binding_sequences"]["inputs"][1] = "in1";
  expect(twice, "kernels[0].tensor_binding_sequences.inputs[1]: \"in1\" is in the sequence twice");

  ordered_json alias = program();
  alias["kernels"][0]["tensor_binding_sequences"] = {{"in0_t", ordered_json::array({"in1"})}};
  expect(alias, "kernels[0].tensor_binding_sequences.in0_t: \"in0_t\" is also the name of tensor::in0_t");

  ordered_json empty = program();
  empty["kernels"][0]["scratchpad_bindings"][1]["size"] = 0;
  expect(empty, "kernels[0].scratchpad_bindings[1].size: a scratchpad reserves a non-zero number of bytes");

  ordered_json same = program();
  same["kernels"][0]["scratchpad_bindings"][1]["name"] = "pad";
  expect(same, "kernels[0].scratchpad_bindings[1].name: \"pad\" is bound twice");

  ordered_json huge = program();
  huge["kernels"][0]["scratchpad_bindings"][1]["size"] = 2 * 1024 * 1024;
  expect(huge, "kernels[0].scratchpad_bindings[1].size: the CBs and scratchpads on core (0,0) need L1");

  ordered_json legacy = program();
  legacy["kernels"][0].erase("runtime_arguments_schema");
  legacy["kernels"][0].erase("tensor_bindings");
  legacy["kernels"][0].erase("tensor_binding_sequences");
  legacy["kernels"][0]["common_runtime_args"] = ordered_json::array();
  expect(legacy, "kernels[0].scratchpad_bindings: scratch:: names are Metal 2.0's");
}

}  // namespace
}  // namespace ditmk::testing
