// Kernel roots (docs/tt-dialect.md, "Kernel roots"): a kernel source is found as tt-metal's JIT finds
// it (beside the descriptor, in the working folder, then under --kernel-root or $TT_METAL_HOME), and
// it includes the root's headers above the hardware layer while the device headers stay ditmk's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
#include "support/cli_runner.hpp"
#include "support/error_of.hpp"
#include "support/tt_metal_tree.hpp"

namespace ditmk::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kLoopback = fs::path(ditmk::build::source_dir()) / "examples/tt/loopback";
const char* const kRootKernel = "ttnn/cpp/ttnn/operations/fake_copy/device/kernels/dataflow/copy_pages.cpp";

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// A fake tt-metal tree: an op's kernel that takes its block size from the op's own header (found
// through ttnn/cpp, as the JIT's include path finds it) and a hostdevcommon header (found through
// tt_metal/hostdevcommon/api); the copy loop is the loopback example's.
fs::path make_root(const fs::path& root) {
  std::ifstream loopback(kLoopback / "kernels/loopback.cpp");
  std::string body((std::istreambuf_iterator<char>(loopback)), std::istreambuf_iterator<char>());
  write_file(root / kRootKernel,
             "#include \"ttnn/operations/fake_copy/device/fake_copy_common.hpp\"\n"
             "#include \"hostdevcommon/fake_values.hpp\"\n"
             "static_assert(fake_copy::kBlockPages == 8 && fake_values::kPageSize == 4096);\n" + body);
  write_file(root / "ttnn/cpp/ttnn/operations/fake_copy/device/fake_copy_common.hpp",
             "#pragma once\n#include <cstdint>\nnamespace fake_copy { constexpr uint32_t kBlockPages = 8; }\n");
  write_file(root / "tt_metal/hostdevcommon/api/hostdevcommon/fake_values.hpp",
             "#pragma once\n#include <cstdint>\nnamespace fake_values { constexpr uint32_t kPageSize = 4096; }\n");
  return root;
}

// The loopback program in `dir` with its kernel named as a path under the root.
fs::path program_in(const fs::path& dir, const std::string& kernel_source) {
  nlohmann::json program = nlohmann::json::parse(std::ifstream(kLoopback / "program.json"));
  program["kernels"][0]["kernel_source"] = kernel_source;
  fs::create_directories(dir);
  const fs::path file = dir / "program.json";
  std::ofstream(file) << program.dump(1);
  Tensor src(DType::F32, {256, 256});
  for (int64_t i = 0; i < src.numel(); ++i) src.data<float>()[i] = float(i % 613) * 0.5f;
  io::write_npy(dir / "src.npy", src.view());
  return file;
}

void expect_copied(const fs::path& dir) {
  const Tensor src = io::read_npy(dir / "src.npy");
  const Tensor dst = io::read_npy(dir / "dst.npy");
  ASSERT_EQ(dst.nbytes(), src.nbytes());
  EXPECT_EQ(std::memcmp(dst.bytes(), src.bytes(), src.nbytes()), 0);
}

std::string emulate(const fs::path& program, const TempDir& cache) {
  return " emulate --descriptor " + program.string() + " --kernel-cache " + cache.path().string();
}

TEST(KernelRoots, AKernelUnderTheKernelRootRunsWithItsHeaders) {
  TempDir dir, cache;
  const fs::path root = make_root(dir.path() / "tt-metal");
  const fs::path program = program_in(dir.path() / "work", kRootKernel);
  const CliResult r = run_command(ditmk_binary() + emulate(program, cache) + " --kernel-root " + root.string());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  expect_copied(dir.path() / "work");
}

TEST(KernelRoots, TtMetalHomeIsTheDefaultRoot) {
  TempDir dir, cache;
  const fs::path root = make_root(dir.path() / "tt-metal");
  const fs::path program = program_in(dir.path() / "work", kRootKernel);
  const CliResult r = run_command("TT_METAL_HOME=" + root.string() + " " + ditmk_binary() + emulate(program, cache));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  expect_copied(dir.path() / "work");
}

TEST(KernelRoots, AMissingKernelIsOneLineNamingEveryPlaceTried) {
  TempDir dir, cache;
  const fs::path root = dir.path() / "tt-metal";
  fs::create_directories(root);
  const fs::path program = program_in(dir.path() / "work", "kernels/nowhere.cpp");
  const CliResult r = run_command("cd " + dir.path().string() + " && env -u TT_METAL_HOME " + ditmk_binary() +
                                  emulate(program, cache) + " --kernel-root " + root.string());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("kernels[0].kernel_source: \"kernels/nowhere.cpp\" is not a file"), std::string::npos) << r.err;
  for (const fs::path& place : {dir.path() / "work/kernels/nowhere.cpp", dir.path() / "kernels/nowhere.cpp",
                                root / "kernels/nowhere.cpp"}) {
    std::string quoted = place.string();  // as the message quotes it
    quoted.insert(quoted.begin(), '"');
    quoted.push_back('"');
    EXPECT_NE(r.err.find(quoted), std::string::npos) << place << " in " << r.err;
  }
}

TEST(KernelRoots, AKernelRootThatIsNoFolderIsRefusedInOneLine) {
  TempDir dir, cache;
  const fs::path program = program_in(dir.path() / "work", kRootKernel);
  const fs::path nowhere = dir.path() / "no-such-tree";
  const CliResult r = run_command(ditmk_binary() + emulate(program, cache) + " --kernel-root " + nowhere.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("--kernel-root"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(nowhere.string()), std::string::npos) << r.err;
}

TEST(KernelRoots, WithoutARootTheErrorSaysHowToGiveOne) {
  if (std::getenv("TT_METAL_HOME") != nullptr) GTEST_SKIP() << "TT_METAL_HOME is set";
  TempDir dir;
  const fs::path program = program_in(dir.path(), kRootKernel);
  const std::string error = error_of([&] { tt::dialect::read_descriptor(program); });
  EXPECT_NE(error.find("no kernel root: --kernel-root DIR or $TT_METAL_HOME"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

// Compiles `kernel` (a data-movement kernel) with `root` as its kernel root.
std::string build_error(const fs::path& kernel, const fs::path& root, const fs::path& cache) {
  tt::dialect::KernelCompiler compiler(cache);
  tt::dialect::KernelBuild build;
  build.source = kernel;
  build.source_name = kernel.filename().string();
  build.kernel_root = root;
  return error_of([&] { compiler.load(build); });
}

TEST(KernelRoots, TheRootsHardwareLayerIsNeverOnThePath) {
  TempDir dir;
  const fs::path root = dir.path() / "tt-metal";
  write_file(root / "tt_metal/hw/inc/fake_hw.h", "#pragma once\n");
  write_file(root / "tt_metal/hw/inc/api/dataflow/dataflow_api.h", "#error the root's device API\n");
  write_file(dir.path() / "k/uses_hw.cpp", "#include \"fake_hw.h\"\nvoid kernel_main() {}\n");
  const std::string error = build_error(dir.path() / "k/uses_hw.cpp", root, dir.path() / "cache");
  EXPECT_NE(error.find("uses_hw.cpp:1: error: fake_hw.h: No such file"), std::string::npos) << error;
  // The device API a kernel includes is ditmk's, not the root's.
  write_file(dir.path() / "k/api_kernel.cpp", "#include \"api/dataflow/dataflow_api.h\"\nvoid kernel_main() {}\n");
  EXPECT_EQ(build_error(dir.path() / "k/api_kernel.cpp", root, dir.path() / "cache"), "");
}

TEST(KernelRoots, AHostHeaderUnderTheRootIsStillRefused) {
  TempDir dir;
  const fs::path root = dir.path() / "tt-metal";
  write_file(root / "ttnn/cpp/ttnn/helper.hpp", "#pragma once\n#include <zmq.h>\n");
  write_file(dir.path() / "k/kernel.cpp", "#include \"ttnn/helper.hpp\"\nvoid kernel_main() {}\n");
  const std::string error = build_error(dir.path() / "k/kernel.cpp", root, dir.path() / "cache");
  EXPECT_NE(error.find("helper.hpp:2: includes <zmq.h>, a host header"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

// The real 0.81.1 tree as TT_METAL_HOME: hostdevcommon's header builds as it is.
TEST(KernelRoots, HostdevcommonOfTheReferenceTreeBuildsAsItIs) {
  const auto tree = ditmk::test::tt_metal_tree();
  if (!tree) GTEST_SKIP() << ditmk::test::tt_metal_tree_missing();
  TempDir dir, cache;
  write_file(dir.path() / "kernels/values.cpp",
             "#include \"api/debug/dprint.h\"\n"
             "#include \"hostdevcommon/common_values.hpp\"\n"
             "static_assert(MAX_NUM_HW_CQS == 2);\n"
             "void kernel_main() { DPRINT << \"entries \" << DISPATCH_MAX_MESSAGE_ENTRIES << ENDL(); }\n");
  nlohmann::json program = {
      {"kernels",
       {{{"kernel_source", "kernels/values.cpp"},
         {"core_ranges", {{{"start", {0, 0}}, {"end", {0, 0}}}}},
         {"config", {{"type", "reader"}}}}}}};
  std::ofstream(dir.path() / "program.json") << program.dump(1);
  const CliResult r = run_command("TT_METAL_HOME=" + tree->string() + " " + ditmk_binary() +
                                  emulate(dir.path() / "program.json", cache));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE((r.out + r.err).find("entries 8"), std::string::npos) << r.out << r.err;
}

}  // namespace
}  // namespace ditmk::testing
