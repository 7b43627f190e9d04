// `ditmk emulate --descriptor` as a user runs it: outputs, the kernel cache across runs, and bad
// input (one line naming the file or field, exit 1, no output file).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <sstream>
#include <functional>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/program/tensor_codec.hpp"
#include "ditmk/tt/emu/kernel_guard.hpp"
#include "support/cli_runner.hpp"

namespace ditmk::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kLoopback = fs::path(ditmk::build::source_dir()) / "examples/tt/loopback";

// The loopback example copied into `dir` with its input, optionally edited.
fs::path loopback_in(const TempDir& dir, const std::function<void(nlohmann::json&)>& edit = {}) {
  fs::copy(kLoopback / "kernels", dir.path() / "kernels", fs::copy_options::recursive);
  nlohmann::json program = nlohmann::json::parse(std::ifstream(kLoopback / "program.json"));
  if (edit) edit(program);
  const fs::path file = dir.path() / "program.json";
  std::ofstream(file) << program.dump(1);
  Tensor src(DType::F32, {256, 256});
  for (int64_t i = 0; i < src.numel(); ++i) src.data<float>()[i] = float(i % 977) * 0.25f;
  io::write_npy(dir / "src.npy", src.view());
  return file;
}

std::string emulate(const fs::path& program, const TempDir& cache) {
  return "emulate --descriptor " + program.string() + " --kernel-cache " + cache.path().string();
}

TEST(EmulateDescriptor, SecondRunCompilesNothing) {
  TempDir dir, cache;
  const fs::path program = loopback_in(dir);
  const CliResult first = run_ditmk(emulate(program, cache));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("kernels: 1 compiled"), std::string::npos) << first.out;
  const Tensor src = io::read_npy(dir / "src.npy");
  const Tensor dst = io::read_npy(dir / "dst.npy");
  ASSERT_EQ(dst.nbytes(), src.nbytes());
  EXPECT_EQ(std::memcmp(dst.bytes(), src.bytes(), src.nbytes()), 0);
  fs::remove(dir / "dst.npy");
  const CliResult second = run_ditmk(emulate(program, cache));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.out.find("kernels: 0 compiled (0.00 s), 1 from the cache"), std::string::npos) << second.out;
  EXPECT_TRUE(fs::exists(dir / "dst.npy"));
}

void expect_refused(const CliResult& r, const TempDir& dir, const std::string& must_name) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(must_name), std::string::npos) << "expected '" << must_name << "' in: " << r.err;
  EXPECT_FALSE(fs::exists(dir / "dst.npy"));
}

TEST(EmulateDescriptor, BadFieldIsOneLineNamingIt) {
  TempDir dir, cache;
  const fs::path program = loopback_in(dir, [](nlohmann::json& p) { p["kernels"][0]["core_ranges"][0]["end"] = {11, 0}; });
  expect_refused(run_ditmk(emulate(program, cache)), dir, "program.json: kernels[0].core_ranges[0].end");
}

TEST(EmulateDescriptor, MissingInputIsNamed) {
  TempDir dir, cache;
  const fs::path program = loopback_in(dir);
  fs::remove(dir / "src.npy");
  expect_refused(run_ditmk(emulate(program, cache)), dir, "src.npy");
}

TEST(EmulateDescriptor, WrongInputShapeIsNamed) {
  TempDir dir, cache;
  const fs::path program = loopback_in(dir);
  io::write_npy(dir / "src.npy", Tensor(DType::F32, {128, 256}).view());
  expect_refused(run_ditmk(emulate(program, cache)), dir, "tensor 'src' has shape [128, 256]");
}

// An input may be the tensor's stored bytes (uint8), as `ditmk export --tt-metal` writes them.
TEST(EmulateDescriptor, StoredBytesAsUint8RunAsTheValuesDo) {
  TempDir dir, cache;
  const fs::path program = loopback_in(dir);
  ASSERT_EQ(run_ditmk(emulate(program, cache)).exit_code, 0);
  const Tensor from_values = io::read_npy(dir / "dst.npy");
  const tt::dialect::ProgramDescriptor d = tt::dialect::read_descriptor(program);
  const std::vector<std::byte> stored = tt::dialect::encode_tensor(*d.tensor("src"), io::read_npy(dir / "src.npy"), "src");
  io::write_npy(dir / "src.npy", TensorView{DType::U8, {int64_t(stored.size())}, stored.data()});
  ASSERT_EQ(run_ditmk(emulate(program, cache)).exit_code, 0);
  const Tensor from_bytes = io::read_npy(dir / "dst.npy");
  ASSERT_EQ(from_bytes.nbytes(), from_values.nbytes());
  EXPECT_EQ(std::memcmp(from_bytes.bytes(), from_values.bytes(), from_values.nbytes()), 0);
  // a byte short is named, and nothing is written
  fs::remove(dir / "dst.npy");
  io::write_npy(dir / "src.npy", TensorView{DType::U8, {int64_t(stored.size() - 1)}, stored.data()});
  expect_refused(run_ditmk(emulate(program, cache)), dir, "tensor 'src' holds");
}

TEST(EmulateDescriptor, KernelThatDoesNotCompileIsOneLine) {
  TempDir dir, cache;
  const fs::path program = loopback_in(dir);
  std::ofstream(dir / "kernels/loopback.cpp", std::ios::app) << "\nvoid broken() { return 1; }\n";
  expect_refused(run_ditmk(emulate(program, cache)), dir, "kernels/loopback.cpp:");
}

TEST(EmulateDescriptor, FaultNamesKernelAndWritesNoOutput) {
  TempDir dir, cache;
  // One page more than the input holds: the kernel reads past the buffer.
  const fs::path program = loopback_in(dir, [](nlohmann::json& p) { p["kernels"][0]["runtime_args"][0]["args"][2] = 65; });
  const CliResult r = run_ditmk(emulate(program, cache));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("fault: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kernels/loopback.cpp on core (0,0) BRISC"), std::string::npos) << r.out;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir / "dst.npy"));
}

// Kernel code that raises a signal or never comes back: one fault line naming the kernel, core,
// processor and what happened; exit 1; no output; and the next run of the same program is clean.
TEST(EmulateDescriptor, SignalOrSpinInKernelIsOneFaultLine) {
  struct Bad {
    const char* code;
    const char* words;
  };
  const Bad cases[] = {
      {"*reinterpret_cast<volatile uint32_t*>(uintptr_t{0xdead0000}) = 1;",
       "kernel_signal: kernel kernels/loopback.cpp on core (0,0) BRISC: SIGSEGV (address not mapped) at address 0xdead0000"},
      {"volatile uint32_t zero = 0; *reinterpret_cast<volatile uint32_t*>(uintptr_t{0xdead0000}) = 7 / zero;",
       "kernel_signal: kernel kernels/loopback.cpp on core (0,0) BRISC: SIGFPE (integer division by zero)"},
      {"for (volatile uint32_t spin = 0;; spin = spin + 1) {}",
       "no_progress: kernel kernels/loopback.cpp on core (0,0) BRISC: ran "},
  };
  if (!tt::emu::KernelGuard::active()) GTEST_SKIP() << "kernel guard off under AddressSanitizer (ASan owns SIGSEGV)";
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.code);
    TempDir dir, cache;
    const fs::path program = loopback_in(dir);
    const fs::path kernel = dir / "kernels/loopback.cpp";
    std::stringstream text;
    text << std::ifstream(kernel).rdbuf();
    std::string source = text.str();
    const std::string entry = "void kernel_main() {";
    ASSERT_NE(source.find(entry), std::string::npos);
    source.insert(source.find(entry) + entry.size(), std::string("\n") + c.code + "\n");
    std::ofstream(kernel) << source;
    const CliResult r = run_ditmk(emulate(program, cache) + " --watchdog 0.5");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.out.find(std::string("fault: ") + c.words), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("fault: "), r.out.rfind("fault: ")) << r.out;  // one fault line
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir / "dst.npy"));
  }
}

}  // namespace
}  // namespace ditmk::testing
