// The `ditmk plan` command: the manifest's stats, the descriptor's shape, and a failing check
// that exits non-zero with one line and writes nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "ditmk/core/build_paths.hpp"

namespace {

namespace fs = std::filesystem;
const std::string kDitmk = std::string(ditmk::build::binary_dir()) + "/ditmk";

struct CliResult {
  int status;
  std::string output;
};

CliResult run_plan(const std::string& args) {
  std::string command = kDitmk + " plan " + args + " 2>&1";
  std::FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  return {pclose(pipe), output};
}

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("ditmk_plan_" + std::to_string(::getpid()) + "_" + name);
}

class PlanCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kDitmk)) GTEST_SKIP() << kDitmk << " is not built";
  }
};

TEST_F(PlanCli, WritesManifestAndDescriptor) {
  fs::path manifest = temp_path("m.json"), descriptor = temp_path("d.json");
  CliResult r = run_plan("--version n17 --variant steps4 --kernel k4 --dtype bfp8_b --json " + manifest.string() +
              " --descriptor " + descriptor.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("hub L1: 995328 B"), std::string::npos) << r.output;
  nlohmann::json m = nlohmann::json::parse(std::ifstream(manifest));
  EXPECT_EQ(m["stats"]["l1_bytes_compute"], 1'049'600);
  EXPECT_EQ(m["stats"]["l1_bytes_hub"], 995'328);
  EXPECT_EQ(m["stats"]["n_io_tensors"], 49);
  EXPECT_EQ(m["stats"]["n_per_core_rt_args"], 5);
  EXPECT_EQ(m["io"].back(), "action_pred");
  EXPECT_EQ(m["named_ctas"]["image_mask_present"], 0);
  nlohmann::json d = nlohmann::json::parse(std::ifstream(descriptor));
  EXPECT_EQ(d["kernels"].size(), 12u);  // 4 groups x 3 RISCs
  // the megakernel's dialect source, as a path from the descriptor's folder
  const fs::path source = d["kernels"][0]["kernel_source"].get<std::string>();
  EXPECT_TRUE(source.is_relative()) << source;
  EXPECT_TRUE(fs::equivalent(descriptor.parent_path() / source,
                             fs::path(ditmk::build::source_dir()) / "src/ditmk/tt/kernel/dit_kernel.cpp"))
      << source;
  EXPECT_EQ(d["kernels"][0]["named_compile_time_args"]["hub_noc_x"], 4);  // the emulated chip's coordinates
  EXPECT_EQ(d["kernels"][2]["config"]["unpack_to_dest_mode"]["19"], "UnpackToDestFp32");
  EXPECT_EQ(d["tensors"].back()["name"], "action_pred");
  EXPECT_EQ(d["kernels"][0]["common_runtime_args"][0]["address_of"], "x_rep");
  fs::remove(manifest);
  fs::remove(descriptor);
}

TEST_F(PlanCli, FailingCheckWritesNothing) {
  fs::path manifest = temp_path("bad.json");
  CliResult r = run_plan("--version n15 --kernel k1 --dtype bf16 --cb-w-slots 64 --json " + manifest.string());
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("ditmk: error: k1 compute L1 2711552 B exceeds the limit of 1461248 B"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(manifest));
}

// --protocol reaches the kernel as the named arg k4_onehub; an unknown one is one error line and no
// file.
TEST_F(PlanCli, ProtocolIsTheNamedArgK4Onehub) {
  fs::path descriptor = temp_path("onehub.json");
  CliResult r = run_plan("--version n15 --protocol onehub --descriptor " + descriptor.string());
  ASSERT_EQ(r.status, 0) << r.output;
  nlohmann::json d = nlohmann::json::parse(std::ifstream(descriptor));
  for (const auto& kernel : d["kernels"]) EXPECT_EQ(kernel["named_compile_time_args"]["k4_onehub"], 1);
  fs::remove(descriptor);
  r = run_plan("--version n15 --protocol twohub --descriptor " + descriptor.string());
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("ditmk: error: --protocol: unknown protocol 'twohub' (known: seed, onehub)"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
  EXPECT_FALSE(fs::exists(descriptor));
}

TEST_F(PlanCli, RejectsUnknownDtype) {
  CliResult r = run_plan("--version n16 --dtype fp8");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("'fp8'"), std::string::npos) << r.output;
}

}  // namespace
