// Metal 2.0 kernels (tt-metal 0.81.1's ProgramSpec kernels: softmax, layernorm and most of ttnn's
// newer ops) read their arguments by name, get_arg(args::<name>), and name their dataflow buffers,
// dfb::<name>: a descriptor's runtime_arguments_schema names the leading runtime args, per core and
// common, its named_compile_time_args become compile-time constants of the same namespace and its
// dataflow_buffer_bindings the dfb:: ids. A kernel reads each kind, the varargs past them and a
// bound buffer's entry size back into a tensor; bad schemas are one line naming the field.
#include <gtest/gtest.h>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "tt_dialect/descriptor_in_dir.hpp"

namespace ditmk::testing {
namespace {

using nlohmann::ordered_json;

ordered_json one_core() { return ordered_json::array({{{"start", {0, 0}}, {"end", {0, 0}}}}); }

ordered_json program() {
  const std::string kernel =
      (std::filesystem::path(ditmk::build::source_dir()) / "tests/tt_dialect/norm_kernels/named_args.cpp").string();
  return {{"tensors",
           {{{"name", "out"}, {"memory", "dram_interleaved"}, {"layout", "row_major"}, {"data_format", "uint32"},
             {"shape", {1, 16}}, {"output", "out.npy"}}}},
          {"kernels",
           {{{"kernel_source", kernel},
             {"core_ranges", one_core()},
             {"config", {{"type", "writer"}}},
             {"compile_time_args", {{{"tensor_accessor_args", "out"}}}},
             {"named_compile_time_args", {{"block", 7}}},
             {"runtime_arguments_schema",
              {{"named_runtime_args", {"rows", "out_address", "start"}}, {"named_common_runtime_args", {"scale"}}}},
             {"runtime_args", {{{"core", {0, 0}}, {"args", {11, {{"address_of", "out"}}, 13, 101}}}}},
             {"common_runtime_args", {17, 200, 201}},
             {"dataflow_buffer_bindings", {{"row", 3}}}}}},
          {"cbs",
           {{{"total_size", 64},
             {"core_ranges", one_core()},
             {"format_descriptors", {{{"buffer_index", 3}, {"data_format", "uint32"}, {"page_size", 64}}}}}}}};
}

TEST(NamedKernelArgs, EachKindAndTheVarargsReadTheirWords) {
  TempDir dir;
  const tt::dialect::DescriptorRun run = run_in(dir, program(), "unused.npy", Tensor(DType::I32, {1}));
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  const Tensor out = io::read_npy(dir / "out.npy");
  ASSERT_EQ(out.numel(), 16);
  // rows, scale, block, vararg 0, common vararg 1, start, dfb::row's entry size
  const int32_t expected[] = {11, 17, 7, 101, 201, 13, 64};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(out.data<int32_t>()[i], expected[i]) << "word " << i;
}

TEST(NamedKernelArgs, BadSchemasAreOneLineNamingTheField) {
  ordered_json twice = program();
  twice["kernels"][0]["runtime_arguments_schema"]["named_common_runtime_args"] = {"block"};
  EXPECT_NE(refusal(twice).find("kernels[0].runtime_arguments_schema.named_common_runtime_args[0]: \"block\" is "
                                "named twice"),
            std::string::npos)
      << refusal(twice);

  ordered_json not_identifier = program();
  not_identifier["kernels"][0]["runtime_arguments_schema"]["named_runtime_args"][1] = "2nd";
  EXPECT_NE(refusal(not_identifier).find("named_runtime_args[1]: \"2nd\" is not a C identifier"), std::string::npos)
      << refusal(not_identifier);

  ordered_json too_few = program();
  too_few["kernels"][0]["runtime_args"][0]["args"] = {11, 12};
  EXPECT_NE(refusal(too_few).find("kernels[0].runtime_args[0].args: 2 words, fewer than the 3 named_runtime_args"),
            std::string::npos)
      << refusal(too_few);

  ordered_json legacy = program();
  legacy["kernels"][0].erase("runtime_arguments_schema");
  legacy["kernels"][0]["named_compile_time_args"] = ordered_json::object();
  EXPECT_NE(refusal(legacy).find("kernels[0].dataflow_buffer_bindings: dfb:: names are Metal 2.0's"),
            std::string::npos)
      << refusal(legacy);

  ordered_json misspelt = program();
  misspelt["kernels"][0]["runtime_arguments_schema"]["named_rt_args"] = ordered_json::array();
  EXPECT_NE(refusal(misspelt).find("named_rt_args"), std::string::npos) << refusal(misspelt);
}

}  // namespace
}  // namespace ditmk::testing
