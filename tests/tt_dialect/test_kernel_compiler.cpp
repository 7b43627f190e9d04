// The run-time kernel build: hygiene, one-line compile errors, and the cache.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

fs::path kernel(const char* name) { return fs::path(ditmk::build::source_dir()) / "tests/tt_dialect/compile_kernels" / name; }


KernelBuild reader(const fs::path& source) {
  KernelBuild build;
  build.source = source;
  build.source_name = source.filename().string();
  build.processor = emu::Processor::ncrisc;
  return build;
}

std::string load_error(KernelCompiler& compiler, const KernelBuild& build) {
  return testing::error_of([&] { compiler.load(build); });
}

TEST(KernelCompiler, HostHeaderIsRefusedInOneLine) {
  testing::TempDir cache;
  KernelCompiler compiler(cache.path());
  const std::string error = load_error(compiler, reader(kernel("host_header.cpp")));
  EXPECT_NE(error.find("host_header.cpp:1: includes <zmq.h>, a host header"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(KernelCompiler, CompileErrorNamesFileAndLine) {
  testing::TempDir cache;
  KernelCompiler compiler(cache.path());
  const std::string error = load_error(compiler, reader(kernel("does_not_compile.cpp")));
  EXPECT_NE(error.find("does_not_compile.cpp:5: error:"), std::string::npos) << error;
  EXPECT_NE(error.find("no_such_call"), std::string::npos) << error;
  EXPECT_NE(error.find("compiling for NCRISC"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(KernelCompiler, RuntimeLibrariesAreNotLinked) {
  testing::TempDir cache;
  KernelCompiler compiler(cache.path());
  const std::string error = load_error(compiler, reader(kernel("calls_malloc.cpp")));
  EXPECT_NE(error.find("undefined reference to `malloc'"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(KernelCompiler, SecondBuildComesFromTheCacheUntilTheSourceChanges) {
  testing::TempDir dir;
  const fs::path cache = dir.path();
  const fs::path source = cache / "kernel.cpp";
  fs::copy_file(kernel("minimal.cpp"), source);
  {
    KernelCompiler compiler(cache);
    ASSERT_NE(compiler.load(reader(source)), nullptr);
    EXPECT_EQ(compiler.stats().compiled, 1u);
  }
  {
    KernelCompiler compiler(cache);  // a new process would see the same
    ASSERT_NE(compiler.load(reader(source)), nullptr);
    EXPECT_EQ(compiler.stats().compiled, 0u);
    EXPECT_EQ(compiler.stats().cache_hits, 1u);
    KernelBuild other = reader(source);
    other.processor = emu::Processor::brisc;  // a second processor is a second object
    compiler.load(other);
    EXPECT_EQ(compiler.stats().compiled, 1u);
  }
  std::ofstream(source, std::ios::app) << "// edited\n";
  KernelCompiler compiler(cache);
  compiler.load(reader(source));
  EXPECT_EQ(compiler.stats().compiled, 1u);
}

TEST(KernelCompiler, MissingSourceIsNamed) {
  testing::TempDir cache;
  KernelCompiler compiler(cache.path());
  KernelBuild build = reader("/nonexistent/kernel.cpp");
  build.source_name = "kernels/gone.cpp";
  EXPECT_EQ(load_error(compiler, build), "kernels/gone.cpp: no such kernel file");
}

}  // namespace
}  // namespace ditmk::tt::dialect
