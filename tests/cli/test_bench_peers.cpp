// `ditmk bench --peer`: every peer runs once on a tiny release (so the export and both runtimes
// cannot rot), each one's actions agree with the reference as its precision allows, and a peer that
// is missing, fails or prints garbage is one error line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "fixtures.hpp"
#include "support/cli_runner.hpp"

namespace ditmk::testing {
namespace {

bool python_has(const std::string& module) {
  return run_command("/usr/bin/python3 -c 'import " + module + "'").exit_code == 0;
}

std::string bench_args(const TinyFixture& f) {
  return "bench --json --threads 2 --runs 5 --warmup 1 --checkpoint " + f.release + " --observation " + f.observation;
}

TEST(BenchPeers, EveryPeerRunsAndAgreesWithTheReference) {
  for (const char* module : {"torch", "openvino", "onnxruntime", "onnx"})
    if (!python_has(module)) GTEST_SKIP() << "python3 lacks " << module << ": ./scripts/install-deps.sh peers";
  const TinyFixture& f = tiny_fixture(model::Version::n16);
  const CliResult r = run_ditmk(bench_args(f) + " --peer torch --peer openvino --peer openvino-bf16 --peer onnxruntime "
                                "--peer onnxruntime-int8");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["peers"].size(), 5u);
  // the peers' own precision: f32 graphs reproduce the float64 reference closely, bf16 eager
  // PyTorch and int8 weights less so
  const std::map<std::string, double> min_cos = {{"torch", 0.999},       {"openvino", 0.99999},
                                                 {"openvino-bf16", 0.999}, {"onnxruntime", 0.99999},
                                                 {"onnxruntime-int8", 0.95}};
  for (const auto& p : j["peers"]) {
    const std::string name = p["peer"];
    SCOPED_TRACE(name);
    EXPECT_GT(p["median_ms_per_denoise"].get<double>(), 0.0);
    EXPECT_LE(p["min_ms_per_denoise"].get<double>(), p["median_ms_per_denoise"].get<double>());
    EXPECT_GT(p["speedup"].get<double>(), 0.0);
    EXPECT_GT(p["cos_vs_ref"].get<double>(), min_cos.at(name));
    EXPECT_EQ(p["threads"], 2);
    if (name != "torch") {
      EXPECT_EQ(p["opset"], 17);
    }
  }
  EXPECT_EQ(j["peers"][4]["precision_run"].get<std::string>().rfind("int8 (", 0), 0u) << j["peers"][4];
}

// A stand-in module on PYTHONPATH, in front of the real one.
struct ShadowModule {
  TempDir dir;
  ShadowModule(const std::string& file, const std::string& text) { std::ofstream(dir / file) << text; }
  std::string env() const { return "PYTHONPATH=" + dir.path().string() + " "; }
};

void expect_one_line(const CliResult& r, const std::string& wanted) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(wanted), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(BenchPeers, AMissingRuntimeIsOneLineWithTheInstallCommand) {
  const ShadowModule missing("openvino.py", "raise ImportError('no openvino here', name='openvino')\n");
  const TinyFixture& f = tiny_fixture(model::Version::n15);
  expect_one_line(run_command(missing.env() + ditmk_binary() + " " + bench_args(f) + " --peer openvino"),
                  "--peer openvino: peer_onnx.py failed: peer_onnx: error: openvino is not installed (openvino "
                  "missing): ./scripts/install-deps.sh peers");
}

TEST(BenchPeers, AFailingPeerIsOneLine) {
  const ShadowModule broken("onnxruntime.py", "raise RuntimeError('the runtime broke')\n");
  const TinyFixture& f = tiny_fixture(model::Version::n15);
  expect_one_line(run_command(broken.env() + ditmk_binary() + " " + bench_args(f) + " --peer onnxruntime"),
                  "--peer onnxruntime: peer_onnx.py failed: RuntimeError: the runtime broke");
}

TEST(BenchPeers, APeerPrintingGarbageIsOneLine) {
  // Python imports sitecustomize at start-up: this one prints before the peer's report
  const ShadowModule noisy("sitecustomize.py", "print('not a report')\n");
  const TinyFixture& f = tiny_fixture(model::Version::n15);
  if (!python_has("torch")) GTEST_SKIP() << "python3-torch missing";
  expect_one_line(run_command(noisy.env() + ditmk_binary() + " " + bench_args(f) + " --peer torch"),
                  "--peer torch: unreadable report from peer_torch.py");
}

TEST(BenchPeers, AnUnknownPeerIsOneLine) {
  const TinyFixture& f = tiny_fixture(model::Version::n15);
  const CliResult r = run_ditmk(bench_args(f) + " --peer tensorflow");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--peer"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tensorflow"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ditmk::testing
