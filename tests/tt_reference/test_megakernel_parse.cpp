// The megakernel builds against tt-metal 0.81.1's own device headers: dit_kernel.cpp, compiled the
// way tt-metal's JIT compiles it for each processor of a Blackhole Tensix core (inside that
// processor's firmware file, with the JIT's include folders and defines, the plan's named
// compile-time args and defines, and for TRISC the generated chlkc_* files), parses with the host's
// g++ (-fsyntax-only). The SFPI toolchain's own headers, which the ttnn wheel does not carry, are
// stood in for by tests/tt_reference/sfpi_shim (its README). Each processor is one test, plain and
// profiled (PROFILE_KERNEL, where the profiler's macros take string-literal names).
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/tt/jit/jit_defines.hpp"
#include "ditmk/tt/program/plan_descriptor.hpp"
#include "support/temp_dir.hpp"
#include "support/tt_metal_tree.hpp"
#include "tt_plan/plan_fixture.hpp"
#include "tt_reference/jit_environment.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

// The compute cores' kernel (the group with is_compute set): every part of the kernel is built for
// every group alike, this one runs all of it.
const KernelDescriptor& compute_group_kernel(const ProgramDescriptor& program) {
  for (const KernelDescriptor& k : program.kernels) {
    if (k.config.type != KernelType::compute) continue;
    for (const auto& [name, value] : k.named_compile_time_args)
      if (name == "is_compute" && value == 1) return k;
  }
  throw std::runtime_error("the plan's descriptor has no compute group");
}

// A C array of one value per CB id (64, tt-metal's NUM_CIRCULAR_BUFFERS), `absent` where no CB is.
std::string per_cb(const std::string& type, const std::string& name, const std::array<int, 64>& values) {
  std::ostringstream out;
  out << "constexpr " << type << " " << name << "[64] = {";
  for (std::size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << values[i];
  out << "};\n";
  return out.str();
}

// What the JIT generates next to the kernel: the named args (a force-included header, as the JIT
// passes them), the kernel's defines, the data-movement include, the TRISC thread sources and the
// compute descriptors (per-CB formats and tile shapes, DST mode, fidelity, approximation).
void write_generated_files(const fs::path& dir, const ProgramDescriptor& program, const KernelDescriptor& k) {
  std::ofstream(dir / "named_args_generated.h") << named_args_header_text(k.named_compile_time_args);

  std::ofstream defines(dir / "defines_generated.h");
  for (const auto& [name, value] : k.defines) defines << "#define " << name << " " << value << "\n";

  const std::string include_kernel = "#include \"" + k.source_path.string() + "\"\n";
  std::ofstream(dir / "kernel_includes.hpp") << include_kernel;
  for (const auto& [thread, macro] : test::jit::kTriscThreads)
    std::ofstream(dir / ("chlkc_" + thread + ".cpp")) << "#define " << macro << "\n#include \"defines_generated.h\"\n" << include_kernel;

  std::array<int, 64> format{}, faces{}, face_rows{}, tile_rows{}, tile_cols{}, face_grid{}, zero{}, tile_bytes{};
  format.fill(255);  // tt-metal's DataFormat::Invalid
  for (const CBDescriptor& cb : program.cbs) {
    for (const CBFormatDescriptor& f : cb.format_descriptors) {
      format[f.buffer_index] = int(data_format_value(f.data_format));
      faces[f.buffer_index] = 4, face_rows[f.buffer_index] = 16, face_grid[f.buffer_index] = 2;
      tile_rows[f.buffer_index] = 32, tile_cols[f.buffer_index] = 32, tile_bytes[f.buffer_index] = int(f.page_size);
    }
  }
  std::ofstream d(dir / "chlkc_descriptors.h");
  d << "#pragma once\n#include <cstdint>\n#include \"llk_defs.h\"\n";
  for (const char* side : {"unpack", "pack"}) {
    const std::string s = side;
    d << per_cb("std::int32_t", s + "_src_format", format) << per_cb("std::int32_t", s + "_dst_format", format)
      << per_cb("std::uint8_t", s + "_tile_num_faces", faces) << per_cb("std::uint8_t", s + "_partial_face", zero)
      << per_cb("std::uint8_t", s + "_tile_face_r_dim", face_rows) << per_cb("std::uint8_t", s + "_narrow_tile", zero)
      << per_cb("std::uint16_t", s + "_tile_r_dim", tile_rows) << per_cb("std::uint16_t", s + "_tile_c_dim", tile_cols)
      << per_cb("std::uint32_t", s + "_tile_size", tile_bytes);
  }
  d << per_cb("std::uint8_t", "unpack_num_faces_r_dim", face_grid) << per_cb("std::uint8_t", "unpack_num_faces_c_dim", face_grid)
    << per_cb("std::uint8_t", "pack_num_faces", faces);
  d << "constexpr ckernel::DstSync DST_SYNC_MODE = ckernel::DstSync::SyncHalf;\n"
    << "constexpr bool DST_ACCUM_MODE = " << (k.config.fp32_dest_acc_en ? "true" : "false") << ";\n"
    << "constexpr ckernel::MathFidelity MATH_FIDELITY = static_cast<ckernel::MathFidelity>("
    << int(llk_math_fidelity(uint32_t(k.config.math_fidelity))) << ");\n"
    << "constexpr bool APPROX = " << (k.config.math_approx_mode ? "true" : "false") << ";\n";
}

struct ParseResult {
  int status = 0;
  std::string first_error;         // the compiler's first error line, or its last line
  std::string kernel_diagnostic;   // the first diagnostic in the megakernel's own files
};

// -fpermissive turns some errors into warnings (the headers cast 32-bit device addresses to
// pointers, which a 64-bit host refuses), so a warning in the megakernel's own files fails too.
ParseResult parse(const fs::path& tree, const fs::path& generated, const test::jit::Processor& processor, bool profiled,
                  const fs::path& kernel_dir) {
  std::ostringstream command;
  command << "g++ -std=c++17 -fsyntax-only -fpermissive -include '" << (generated / "named_args_generated.h").string() << "'"
          << " -I'" << generated.string() << "' -I'" << (fs::path(ditmk::build::source_dir()) / "tests/tt_reference/sfpi_shim").string() << "'";
  for (const std::string& dir : test::jit::kIncludeDirs) command << " -I'" << (tree / dir).string() << "'";
  for (const std::string& flag : test::jit::processor_defines(processor)) command << " " << flag;
  if (profiled)
    for (const std::string& define : test::jit::kProfilerDefines) command << " -D" << define;
  command << " -DKERNEL_COMPILE_TIME_ARGS= '" << (tree / processor.firmware).string() << "' 2>&1";
  ParseResult result;
  FILE* pipe = popen(command.str().c_str(), "r");
  if (pipe == nullptr) return {-1, "could not run g++"};
  std::string line, last;
  std::array<char, 4096> buffer;
  while (std::fgets(buffer.data(), int(buffer.size()), pipe) != nullptr) {
    line = buffer.data();
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (result.first_error.empty() && line.find("error") != std::string::npos) result.first_error = line;
    if (result.kernel_diagnostic.empty() && line.rfind(kernel_dir.string(), 0) == 0 &&
        (line.find(": warning:") != std::string::npos || line.find(": error:") != std::string::npos))
      result.kernel_diagnostic = line;
    if (!line.empty()) last = line;
  }
  result.status = pclose(pipe);
  if (result.first_error.empty()) result.first_error = last;
  return result;
}

struct Case {
  test::jit::Processor processor;
  bool profiled = false;
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.processor.name << (c.profiled ? " profiled" : ""); }

class MegakernelParse : public ::testing::TestWithParam<Case> {};

TEST_P(MegakernelParse, AgainstTtMetal0811) {
  const auto tree = test::tt_metal_tree();
  if (!tree) GTEST_SKIP() << test::tt_metal_tree_missing();
  ditmk::testing::TempDir dir;
  const ProgramSpec spec = tt::testing::spec_of(model::Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  const ProgramDescriptor program = plan_descriptor(spec, kMegakernelSource, megakernel_dir());
  const KernelDescriptor& kernel = compute_group_kernel(program);
  write_generated_files(dir.path(), program, kernel);
  const ParseResult result = parse(*tree, dir.path(), GetParam().processor, GetParam().profiled,
                                   kernel.source_path.parent_path());
  const std::string where = GetParam().processor.name + (GetParam().profiled ? " (profiled)" : "");
  EXPECT_EQ(result.status, 0) << where << ": " << result.first_error;
  EXPECT_EQ(result.kernel_diagnostic, "") << where;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (bool profiled : {false, true})
    for (const test::jit::Processor& p : test::jit::kProcessors) out.push_back({p, profiled});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Processors, MegakernelParse, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.processor.name + (info.param.profiled ? "Profiled" : "");
                         });

}  // namespace
}  // namespace ditmk::tt::dialect
