// The JIT's environment (docs/tt-dialect.md, "The JIT's environment"): every kernel is built with the
// defines tt-metal 0.81.1's JIT gives a Blackhole kernel on its processor, the compute config as the
// generated descriptors' constants, the named args in the generated header's form; a descriptor may
// not set a define the JIT owns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/jit/jit_defines.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

std::map<std::string, std::string> defines_of(const JitTarget& target) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : jit_defines(target)) {
    EXPECT_TRUE(out.emplace(name, value).second) << name << " given twice";
  }
  return out;
}

TEST(JitEnvironment, EachProcessorGetsItsOwnDefines) {
  const auto brisc = defines_of({.processor = emu::Processor::brisc, .noc = 1});
  const auto ncrisc = defines_of({.processor = emu::Processor::ncrisc, .noc = 0});
  const auto trisc = defines_of({.processor = emu::Processor::trisc});
  for (const auto* defines : {&brisc, &ncrisc, &trisc}) {
    for (const char* name : {"ARCH_BLACKHOLE", "TENSIX_FIRMWARE", "KERNEL_BUILD"}) EXPECT_EQ(defines->at(name), "");
    EXPECT_EQ(defines->at("LOCAL_MEM_EN"), "0");
    EXPECT_EQ(defines->at("NOC_MODE"), "0");
    EXPECT_EQ(defines->at("NUM_DRAM_BANKS"), "8");
    EXPECT_EQ(defines->at("NUM_L1_BANKS"), std::to_string(emu::kNumCores));
  }
  EXPECT_TRUE(brisc.count("COMPILE_FOR_BRISC") && !brisc.count("COMPILE_FOR_NCRISC") && !brisc.count("COMPILE_FOR_TRISC"));
  EXPECT_TRUE(ncrisc.count("COMPILE_FOR_NCRISC") && !ncrisc.count("COMPILE_FOR_BRISC"));
  EXPECT_EQ(brisc.at("NOC_INDEX"), "1");
  EXPECT_EQ(ncrisc.at("NOC_INDEX"), "0");
  EXPECT_EQ(trisc.count("NOC_INDEX"), 0u);
  EXPECT_EQ(trisc.at("COMPILE_FOR_TRISC"), "1");
  EXPECT_EQ(trisc.at("NAMESPACE"), "chlkc_math");
  for (const char* role : {"UCK_CHLKC_UNPACK", "UCK_CHLKC_MATH", "UCK_CHLKC_PACK", "TRISC_UNPACK", "TRISC_MATH",
                           "TRISC_PACK"}) {
    EXPECT_EQ(trisc.count(role), 1u) << role;
    EXPECT_EQ(brisc.count(role), 0u) << role;
  }
}

// A build for one TRISC, as tt-metal's JIT makes three: only that role, its namespace and index; the
// firmware's own defines name that TRISC's place among the core's RISCs.
TEST(JitEnvironment, OneTriscRoleGetsOnlyItsOwnDefines) {
  const std::pair<TriscRole, std::string> roles[] = {{TriscRole::unpack, "UNPACK"}, {TriscRole::math, "MATH"},
                                                     {TriscRole::pack, "PACK"}};
  for (std::size_t i = 0; i < 3; ++i) {
    const JitTarget target{.processor = emu::Processor::trisc, .trisc_role = roles[i].first};
    const auto defines = defines_of(target);
    for (const auto& [other, name] : roles) {
      EXPECT_EQ(defines.count("UCK_CHLKC_" + name), other == roles[i].first ? 1u : 0u) << name;
      EXPECT_EQ(defines.count("TRISC_" + name), 0u) << "genfiles' prolog defines TRISC_" << name;
    }
    EXPECT_EQ(defines.at("COMPILE_FOR_TRISC"), std::to_string(i));
    std::string lower = roles[i].second;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    EXPECT_EQ(defines.at("NAMESPACE"), "chlkc_" + lower);
    const std::vector<Define> given = firmware_defines(target);
    const std::map<std::string, std::string> firmware(given.begin(), given.end());
    EXPECT_EQ(firmware.at("PROCESSOR_INDEX"), std::to_string(2 + i));
  }
  const auto brisc = firmware_defines({.processor = emu::Processor::brisc});
  EXPECT_EQ(std::count(brisc.begin(), brisc.end(), Define{"PROCESSOR_INDEX", "0"}), 1);
  // every firmware define is one the emulator withholds, with its reason
  for (const auto& [name, value] : brisc) {
    EXPECT_EQ(std::count_if(jit_defines_not_given().begin(), jit_defines_not_given().end(),
                            [&](const WithheldDefine& w) { return w.name == name; }),
              1)
        << name;
  }
}

TEST(JitEnvironment, EveryDefineTheJitOwnsIsRefusedAndNoneIsBothGivenAndWithheld) {
  const std::vector<std::string_view>& refused = refused_jit_defines();
  auto is_refused = [&](std::string_view name) { return std::find(refused.begin(), refused.end(), name) != refused.end(); };
  for (const emu::Processor p : {emu::Processor::brisc, emu::Processor::ncrisc, emu::Processor::trisc}) {
    for (const auto& [name, value] : jit_defines({.processor = p})) {
      EXPECT_TRUE(is_refused(name)) << name;
      for (const WithheldDefine& w : jit_defines_not_given()) EXPECT_NE(w.name, name);
    }
  }
  for (const char* generated : {"KERNEL_COMPILE_TIME_ARGS", "KERNEL_COMPILE_TIME_ARG_MAP", "MATH_FIDELITY", "APPROX",
                                "DST_ACCUM_MODE", "DST_SYNC_MODE", "PROCESSOR_INDEX"}) {
    EXPECT_TRUE(is_refused(generated)) << generated;
  }
  EXPECT_FALSE(is_refused("REDUCE_OP"));
}

// The schema refuses the same names the parser does.
TEST(JitEnvironment, TheSchemaRefusesExactlyTheJitsDefines) {
  const nlohmann::json schema =
      nlohmann::json::parse(std::ifstream(fs::path(ditmk::build::source_dir()) / "schemas/program_descriptor.schema.json"));
  const nlohmann::json& listed =
      schema["$defs"]["kernel"]["properties"]["defines"]["propertyNames"]["not"]["enum"];
  std::vector<std::string> in_schema = listed.get<std::vector<std::string>>();
  std::sort(in_schema.begin(), in_schema.end());
  const std::vector<std::string> refused(refused_jit_defines().begin(), refused_jit_defines().end());
  EXPECT_EQ(in_schema, refused);
}

TEST(JitEnvironment, NamedArgsAreTheGeneratedHeadersMapSortedByName) {
  EXPECT_EQ(named_args_header_text({}), "");
  const std::string text = named_args_header_text({{"zeta", 3}, {"alpha", 1}});
  EXPECT_NE(text.find("#define KERNEL_COMPILE_TIME_ARG_MAP {\"alpha\",1},{\"zeta\",3}\n"), std::string::npos) << text;
}

// Metal 2.0's kernel_args_generated.h: runtime args at 4-byte steps in schema order, common ones
// likewise, compile-time ones by value sorted by name, and varargs counted past the named words.
TEST(JitEnvironment, KernelArgsHeaderIsTheGeneratedArgsNamespace) {
  const std::string text =
      kernel_args_header_text({.named_runtime_args = {"rows", "start"}, .named_common_runtime_args = {"scale"}},
                              {{"zeta", 3}, {"alpha", 1}});
  const std::string expected =
      "#include \"experimental/kernel_args.h\"\n"
      "namespace args {\n"
      "constexpr experimental::RtaArg<uint32_t> rows{0};\n"
      "constexpr experimental::RtaArg<uint32_t> start{4};\n"
      "constexpr experimental::CrtaArg<uint32_t> scale{0};\n"
      "constexpr experimental::CtaVal<uint32_t> alpha{1u};\n"
      "constexpr experimental::CtaVal<uint32_t> zeta{3u};\n"
      "}  // namespace args\n"
      "FORCE_INLINE uint32_t get_vararg(uint32_t idx) { return get_arg_val<uint32_t>(2 + idx); }\n"
      "FORCE_INLINE uint32_t get_common_vararg(uint32_t idx) { return get_common_arg_val<uint32_t>(1 + idx); }\n";
  EXPECT_NE(text.find(expected), std::string::npos) << text;
  // no named args at all: no namespace, the vararg readers from word 0
  const std::string bare = kernel_args_header_text({}, {});
  EXPECT_EQ(bare.find("namespace args"), std::string::npos) << bare;
  EXPECT_NE(bare.find("get_arg_val<uint32_t>(0 + idx)"), std::string::npos) << bare;
}

// Compile-time varargs (KernelSpec's advanced_options.compile_time_varargs): the first N positional
// compile-time args, read from index 0 by value or as a template, with their count; none by default.
TEST(JitEnvironment, KernelArgsHeaderReadsCompileTimeVarargsFromTheFirstPositionalArg) {
  const std::string text = kernel_args_header_text({}, {}, 0, 3);
  EXPECT_NE(text.find("constexpr uint32_t get_num_compile_time_varargs() { return 3u; }\n"), std::string::npos) << text;
  EXPECT_NE(text.find("constexpr uint32_t get_compile_time_vararg(uint32_t idx) { return "
                      "kernel_compile_time_args[idx]; }"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("static_assert(Idx < 3u"), std::string::npos) << text;
  const std::string none = kernel_args_header_text({}, {});
  EXPECT_NE(none.find("get_num_compile_time_varargs() { return 0u; }"), std::string::npos) << none;
  EXPECT_EQ(none.find("get_compile_time_vararg(uint32_t idx)"), std::string::npos) << none;
}

TEST(JitEnvironment, KernelBindingsHeaderIsTheDataflowBufferTokensSortedByName) {
  EXPECT_EQ(kernel_bindings_header_text({}, {}, false), "");
  const std::string text =
      kernel_bindings_header_text({.dataflow_buffers = {{"out0", 16}, {"in0", 0}}}, {}, false);
  EXPECT_NE(text.find("namespace dfb {\nconstexpr DFBBindingToken in0{0};\nconstexpr DFBBindingToken out0{16};\n}"),
            std::string::npos)
      << text;
}

TEST(JitEnvironment, ComputeConfigIsTheGeneratedDescriptorsConstants) {
  EXPECT_EQ(compute_descriptors_text({.processor = emu::Processor::ncrisc}), "");
  const std::string text = compute_descriptors_text({.processor = emu::Processor::trisc,
                                                     .math_fidelity = LlkMathFidelity::hifi2,
                                                     .fp32_dest_acc_en = true,
                                                     .math_approx_mode = false});
  EXPECT_NE(text.find("constexpr bool DST_ACCUM_MODE = true;"), std::string::npos) << text;
  EXPECT_NE(text.find("#define DST_SYNC_MODE DstSync::SyncHalf"), std::string::npos) << text;
  EXPECT_NE(text.find("static_cast<ckernel::MathFidelity>(2)"), std::string::npos) << text;
  EXPECT_NE(text.find("constexpr bool APPROX = false;"), std::string::npos) << text;
}

TEST(JitEnvironment, ComputeDescriptorsCarryEachCbsFormatAndTileShape) {
  // CB 0 Float16_b, CB 16 Float32 (tt-metal's DataFormat values 5 and 0); every other CB Invalid (255)
  const std::string text = compute_descriptors_text(
      {.processor = emu::Processor::trisc, .cb_formats = {{0, 5, 2048}, {16, 0, 4096}}});
  std::string l1 = "5";
  for (uint32_t id = 1; id < 64; ++id) l1 += id == 16 ? ",0" : ",255";
  EXPECT_NE(text.find("constexpr std::int32_t unpack_src_format[64] = {" + l1 + "};"), std::string::npos) << text;
  EXPECT_NE(text.find("constexpr unsigned char pack_dst_format[64] = {" + l1 + "};"), std::string::npos) << text;
  // a 16-bit DST (no fp32_dest_acc_en) holds Float16_b for both
  EXPECT_NE(text.find("constexpr unsigned char pack_src_format[64] = {5,"), std::string::npos) << text;
  EXPECT_NE(text.find("constexpr uint8_t unpack_tile_r_dim[64] = {32,"), std::string::npos) << text;
  EXPECT_NE(text.find("constexpr uint16_t pack_tile_size[64] = {2048,"), std::string::npos) << text;
}

// A kernel that checks, at compile time, the environment it was built in against what the test
// says it should be (EXPECT_* defines): it builds only if each define is there with its value.
const char* const kCheckingKernel = R"(#include <stdint.h>
#if !defined(ARCH_BLACKHOLE) || !defined(TENSIX_FIRMWARE) || !defined(KERNEL_BUILD) || LOCAL_MEM_EN != 0
#error "the JIT's environment defines are missing"
#endif
static_assert(NUM_DRAM_BANKS == 8 && LOG_BASE_2_OF_NUM_DRAM_BANKS == 3 && IS_NOT_POW2_NUM_L1_BANKS == 1);
static_assert(NOC_MODE == DM_DEDICATED_NOC);
static_assert(get_named_compile_time_arg_val("alpha") == 11 && get_named_compile_time_arg_val("zeta") == 26);
static_assert(get_compile_time_arg_val(1) == 7);
#if EXPECT_TRISC
#include "api/compute/common.h"
#if !defined(UCK_CHLKC_UNPACK) || !defined(UCK_CHLKC_MATH) || !defined(UCK_CHLKC_PACK) || \
    !defined(TRISC_UNPACK) || !defined(TRISC_MATH) || !defined(TRISC_PACK) || COMPILE_FOR_TRISC != 1 || \
    defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
#error "the compute roles are not all on"
#endif
constexpr int roles() {
  int n = 0;
  UNPACK(n += 1;)
  MATH(n += 2;)
  PACK(n += 4;)
  return n;
}
static_assert(roles() == 7, "UNPACK, MATH and PACK each keep their statement");
static_assert(MATH_FIDELITY == static_cast<ckernel::MathFidelity>(EXPECT_FIDELITY));
static_assert(DST_ACCUM_MODE == bool(EXPECT_ACCUM) && APPROX == bool(EXPECT_APPROX));
static_assert(DST_SYNC_MODE == ckernel::DstSync::SyncHalf);
namespace NAMESPACE { void MAIN {} }
[[maybe_unused]] constexpr void (*kEntry)() = &chlkc_math::ditmk_compute_main;  // NAMESPACE is chlkc_math
#else
#if defined(EXPECT_BRISC) != defined(COMPILE_FOR_BRISC) || defined(EXPECT_NCRISC) != defined(COMPILE_FOR_NCRISC)
#error "not built for the expected data mover"
#endif
#if defined(COMPILE_FOR_TRISC) || defined(UCK_CHLKC_MATH) || defined(TRISC_MATH)
#error "a data mover sees compute roles"
#endif
static_assert(NOC_INDEX == EXPECT_NOC && noc_index == EXPECT_NOC);
void kernel_main() {}
#endif
)";

class JitEnvironmentBuild : public ::testing::Test {
 protected:
  KernelBuild build(emu::Processor processor, std::vector<std::pair<std::string, std::string>> expect) {
    const fs::path source = dir_.path() / "checks.cpp";
    std::ofstream(source) << kCheckingKernel;
    KernelBuild b;
    b.source = source;
    b.source_name = "checks.cpp";
    b.processor = processor;
    b.compile_time_args = {3, 7};
    b.named_args = {{"zeta", 26}, {"alpha", 11}};
    b.defines = std::move(expect);
    return b;
  }
  std::string error(const KernelBuild& b) { return testing::error_of([&] { compiler_.load(b); }); }

  testing::TempDir dir_;
  KernelCompiler compiler_{dir_.path() / "cache"};
};

TEST_F(JitEnvironmentBuild, DataMoversBuildWithTheirProcessorAndNoc) {
  KernelBuild brisc = build(emu::Processor::brisc, {{"EXPECT_TRISC", "0"}, {"EXPECT_BRISC", "1"}, {"EXPECT_NOC", "1"}});
  brisc.noc = 1;
  EXPECT_EQ(error(brisc), "");
  KernelBuild ncrisc = build(emu::Processor::ncrisc, {{"EXPECT_TRISC", "0"}, {"EXPECT_NCRISC", "1"}, {"EXPECT_NOC", "0"}});
  EXPECT_EQ(error(ncrisc), "");
  // the checks bite: the wrong NoC does not build
  ncrisc.noc = 1;
  EXPECT_NE(error(ncrisc).find("static assertion failed"), std::string::npos);
}

TEST_F(JitEnvironmentBuild, ComputeBuildsWithAllRolesAndItsConfig) {
  KernelBuild trisc = build(emu::Processor::trisc, {{"EXPECT_TRISC", "1"}, {"EXPECT_FIDELITY", "2"},
                                                    {"EXPECT_ACCUM", "1"}, {"EXPECT_APPROX", "1"}});
  trisc.math_fidelity = 1;  // ditmk's HiFi2 is tt-metal's MathFidelity 2
  trisc.fp32_dest_acc_en = true;
  trisc.math_approx_mode = true;
  EXPECT_EQ(error(trisc), "");
  trisc.math_fidelity = 3;  // HiFi4 (4) is not what the kernel expects
  const std::string wrong = error(trisc);
  EXPECT_NE(wrong.find("static assertion failed"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("compiling for TRISC"), std::string::npos) << wrong;
}

TEST(JitEnvironmentDescriptor, ARefusedDefineIsOneLineNamingItAndTheKernel) {
  testing::TempDir dir;
  std::ofstream(dir.path() / "k.cpp") << "void kernel_main() {}\n";
  for (const char* name : {"COMPILE_FOR_TRISC", "ARCH_BLACKHOLE", "MATH_FIDELITY", "PROCESSOR_INDEX"}) {
    const nlohmann::json program = {
        {"kernels",
         {{{"kernel_source", "k.cpp"},
           {"core_ranges", {{{"start", {0, 0}}, {"end", {0, 0}}}}},
           {"config", {{"type", "reader"}}},
           {"defines", {{name, "1"}}}}}}};
    const std::string error =
        testing::error_of([&] { parse_descriptor(program, dir.path() / "program.json"); });
    EXPECT_NE(error.find(std::string("kernels[0].defines.") + name), std::string::npos) << error;
    EXPECT_NE(error.find("kernel \"k.cpp\": tt-metal's JIT defines " + std::string(name) + " itself"),
              std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace ditmk::tt::dialect
