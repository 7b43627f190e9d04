// Metal 2.0 kernels name their tensors, dataflow buffers and semaphores (tensor::src, dfb::in0,
// sem::ready) from the kernel_bindings_generated.h tt-metal's JIT writes for ProgramSpec kernels. A
// descriptor gives them per kernel (tensor_bindings, dataflow_buffer_bindings, semaphore_bindings);
// the tensors' accessor words follow the positional compile-time args and their addresses the named
// common runtime args, as tt-metal lays them out. The header's text, a kernel reading every binding
// back, and bad bindings as one line naming the field.
#include <gtest/gtest.h>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/program/descriptor_json.hpp"
#include "ditmk/tt/jit/jit_defines.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
#include "tt_dialect/descriptor_in_dir.hpp"

namespace ditmk::testing {
namespace {

using nlohmann::ordered_json;
using tt::dialect::kernel_args_header_text;
using tt::dialect::kernel_bindings_header_text;

TEST(Metal2Bindings, HeaderIsTheGeneratedTokens) {
  EXPECT_EQ(kernel_bindings_header_text({}, {}, false), "");
  const std::string text = kernel_bindings_header_text(
      {.dataflow_buffers = {{"out", 16}, {"in0", 0}},
       .tensors = {{.name = "src", .cta_offset = 1, .addr_crta_offset = 4, .format = {5}},
                   {.name = "dst", .cta_offset = 3, .addr_crta_offset = 8, .format = {0}}},
       .tensor_sequences = {{"inputs", {"dst", "src"}}},
       .semaphores = {{"ready", 2}}},
      {{.id = 0, .data_format = 6, .tile_bytes = 1088}}, false);
  const std::string llk_bfp8 =
      "::binding_details::LLKMetadata{.format = 6u, .face_r_dim = 16u, .face_c_dim = 16u, .num_faces_r_dim = 2u, "
      ".num_faces_c_dim = 2u}";
  // dfb sorted by name; a buffer with no CB on the kernel's cores gets the id-only token
  EXPECT_NE(text.find("namespace dfb {\nconstexpr DFBBindingToken in0{0, " + llk_bfp8 +
                      "};\nconstexpr DFBBindingToken out{16};\n}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("namespace sem {\nconstexpr SemaphoreBindingToken ready{2u, SemScope::LOCAL_NONATOMIC};\n}"),
            std::string::npos)
      << text;
  // tensors in declaration order, each a type alias and a token made from its format
  EXPECT_NE(text.find("namespace tensor {\nusing src_t = ::tensor_accessor::TensorBindingToken<1u, 4u>;\n"
                      "constexpr src_t src{::binding_details::LLKMetadata{.format = 5u, "),
            std::string::npos)
      << text;
  EXPECT_LT(text.find("using src_t"), text.find("using dst_t"));
  // a sequence: the tuple of its members' tokens, in its order, after the tokens
  EXPECT_NE(text.find("constexpr std::tuple<dst_t, src_t> inputs{dst, src};\n}  // namespace tensor"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("#include \"api/tensor/tensor_binding_token.h\""), std::string::npos) << text;
  // a compute kernel's semaphore is the engine's own
  EXPECT_NE(kernel_bindings_header_text({.semaphores = {{"ready", 2}}}, {}, true).find("SemScope::COMPUTE_ATOMIC"),
            std::string::npos);
  // the common varargs start past the named common args and one address word per tensor binding
  const std::string args = kernel_args_header_text({.named_common_runtime_args = {"scale"}}, {}, 2);
  EXPECT_NE(args.find("get_common_arg_val<uint32_t>(3 + idx)"), std::string::npos) << args;
}

// The bindings are part of the generated text, so of the cache key: a kernel bound otherwise is
// another object, and the first binding again is the first object.
TEST(Metal2Bindings, BindingsArePartOfTheKernelCacheKey) {
  TempDir dir;
  tt::dialect::KernelCompiler compiler(dir.path());
  tt::dialect::KernelBuild build;
  build.source = std::filesystem::path(ditmk::build::source_dir()) / "tests/tt_dialect/compile_kernels/minimal.cpp";
  build.source_name = "minimal.cpp";
  build.runtime_arguments_schema = tt::dialect::RuntimeArgsSchema{};
  build.bindings.dataflow_buffers = {{"in0", 0}};
  compiler.load(build);
  tt::dialect::KernelBuild rebound = build;
  rebound.bindings.dataflow_buffers = {{"in0", 1}};
  compiler.load(rebound);
  tt::dialect::KernelBuild with_semaphore = build;
  with_semaphore.bindings.semaphores = {{"ready", 1}};
  compiler.load(with_semaphore);
  EXPECT_EQ(compiler.stats().compiled, 3u);
  tt::dialect::KernelCompiler again(dir.path());
  again.load(build);
  EXPECT_EQ(again.stats().compiled, 0u);
  EXPECT_EQ(again.stats().cache_hits, 1u);
}

ordered_json one_core() { return ordered_json::array({{{"start", {0, 0}}, {"end", {0, 0}}}}); }

ordered_json program() {
  const std::string kernel =
      (std::filesystem::path(ditmk::build::source_dir()) / "tests/tt_dialect/norm_kernels/metal2_bindings.cpp").string();
  return {{"tensors",
           {{{"name", "src"}, {"memory", "dram_interleaved"}, {"layout", "row_major"}, {"data_format", "uint32"},
             {"shape", {1, 16}}, {"input", "src.npy"}},
            {{"name", "dst"}, {"memory", "l1_interleaved"}, {"layout", "row_major"}, {"data_format", "uint32"},
             {"shape", {2, 16}}, {"output", "dst.npy"}}}},
          {"kernels",
           {{{"kernel_source", kernel},
             {"core_ranges", one_core()},
             {"config", {{"type", "writer"}}},
             {"compile_time_args", {99}},
             {"runtime_arguments_schema",
              {{"named_runtime_args", ordered_json::array()}, {"named_common_runtime_args", {"scale"}}}},
             {"common_runtime_args", {17, 201}},
             {"dataflow_buffer_bindings", {{"row", 3}}},
             {"tensor_bindings", {{{"name", "src"}, {"tensor", "src"}}, {{"name", "dst"}, {"tensor", "dst"}}}},
             {"tensor_binding_sequences", {{"both", {"src", "dst"}}}},
             {"semaphore_bindings", {{"ready", 1}}}}}},
          {"cbs",
           {{{"total_size", 64},
             {"core_ranges", one_core()},
             {"format_descriptors", {{{"buffer_index", 3}, {"data_format", "uint32"}, {"page_size", 64}}}}}}},
          {"semaphores", {{{"id", 1}, {"core_ranges", one_core()}, {"initial_value", 42}}}}};
}

TEST(Metal2Bindings, AKernelReadsEveryBindingBack) {
  TempDir dir;
  Tensor src(DType::I32, {1, 16});
  for (int i = 0; i < 16; ++i) src.data<int32_t>()[i] = 1000 + 7 * i;
  const tt::dialect::DescriptorRun run = run_in(dir, program(), "src.npy", src);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  const Tensor out = io::read_npy(dir / "dst.npy");
  ASSERT_EQ(out.numel(), 32);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out.data<int32_t>()[i], 1000 + 7 * i) << "src word " << i;
  // scale, common vararg 0, positional compile-time arg 0, dfb::row's entry size and id, sem::ready,
  // the compile-time varargs' count, vararg 0 by index and by template
  const int32_t expected[] = {17, 201, 99, 64, 3, 42, 1, 99, 99};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out.data<int32_t>()[16 + i], expected[i]) << "row 1 word " << i;
}

// descriptor_json writes every binding back as parse_descriptor reads it.
TEST(Metal2Bindings, BindingsSurviveAWriteAndARead) {
  TempDir dir;
  const tt::dialect::ProgramDescriptor read = tt::dialect::parse_descriptor(program(), dir.path() / "program.json");
  const nlohmann::ordered_json written = tt::dialect::descriptor_json(read);
  const ordered_json& kernel = written["kernels"][0];
  EXPECT_EQ(kernel["tensor_bindings"], program()["kernels"][0]["tensor_bindings"]);
  EXPECT_EQ(kernel["tensor_binding_sequences"], program()["kernels"][0]["tensor_binding_sequences"]);
  EXPECT_EQ(kernel["semaphore_bindings"], program()["kernels"][0]["semaphore_bindings"]);
  EXPECT_EQ(kernel["dataflow_buffer_bindings"], program()["kernels"][0]["dataflow_buffer_bindings"]);
  const tt::dialect::ProgramDescriptor again = tt::dialect::parse_descriptor(written, dir.path() / "program.json");
  EXPECT_EQ(tt::dialect::descriptor_json(again), written);
}

TEST(Metal2Bindings, BadBindingsAreOneLineNamingTheField) {
  ordered_json unknown = program();
  unknown["kernels"][0]["tensor_bindings"][1]["tensor"] = "dest";
  EXPECT_NE(refusal(unknown).find("kernels[0].tensor_bindings[1].tensor: no tensor named \"dest\""),
            std::string::npos)
      << refusal(unknown);

  ordered_json twice = program();
  twice["kernels"][0]["tensor_bindings"][1]["name"] = "src";
  EXPECT_NE(refusal(twice).find("kernels[0].tensor_bindings[1].name: \"src\" is bound twice"), std::string::npos)
      << refusal(twice);

  ordered_json legacy = program();
  legacy["kernels"][0].erase("runtime_arguments_schema");
  legacy["kernels"][0].erase("dataflow_buffer_bindings");
  EXPECT_NE(refusal(legacy).find("kernels[0].tensor_bindings: tensor:: names are Metal 2.0's"), std::string::npos)
      << refusal(legacy);

  ordered_json no_semaphore = program();
  no_semaphore["kernels"][0]["semaphore_bindings"]["ready"] = 2;
  EXPECT_NE(refusal(no_semaphore)
                .find("kernels[0].semaphore_bindings.ready: semaphore 2 is not one of the program's semaphores on "
                      "core"),
            std::string::npos)
      << refusal(no_semaphore);

  ordered_json no_cb = program();
  no_cb["kernels"][0]["dataflow_buffer_bindings"]["row"] = 4;
  EXPECT_NE(refusal(no_cb).find("kernels[0].dataflow_buffer_bindings.row: CB 4 is not one of the program's cbs on "
                                "core"),
            std::string::npos)
      << refusal(no_cb);

  ordered_json not_bound = program();
  not_bound["kernels"][0]["tensor_binding_sequences"]["both"][1] = "out";
  EXPECT_NE(refusal(not_bound).find("kernels[0].tensor_binding_sequences.both[1]: \"out\" is not one of the "
                                    "kernel's tensor_bindings"),
            std::string::npos)
      << refusal(not_bound);

  ordered_json collides = program();
  collides["kernels"][0]["tensor_binding_sequences"] = {{"src_t", {"src"}}};
  EXPECT_NE(refusal(collides).find("\"src_t\" is also the name of tensor::src_t"), std::string::npos)
      << refusal(collides);

  ordered_json misspelt = program();
  misspelt["kernels"][0]["tensor_bindings"][0]["buffer"] = "src";
  EXPECT_NE(refusal(misspelt).find("kernels[0].tensor_bindings[0]"), std::string::npos) << refusal(misspelt);
}

}  // namespace
}  // namespace ditmk::testing
