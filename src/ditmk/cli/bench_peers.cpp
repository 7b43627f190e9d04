#include "ditmk/cli/bench_peers.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/metrics.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/io/npy.hpp"

namespace ditmk::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct PeerScript {
  std::string name, script, arguments;
  bool shares_graphs = false;  // takes --work: the ONNX graphs one bench run exports once
};

const std::vector<PeerScript>& peers() {
  static const std::vector<PeerScript> all = {
      {"torch", "peer_torch.py", ""},
      {"openvino", "peer_onnx.py", "--runtime openvino --precision f32", true},
      {"openvino-bf16", "peer_onnx.py", "--runtime openvino --precision bf16", true},
      {"onnxruntime", "peer_onnx.py", "--runtime onnxruntime --precision f32", true},
      {"onnxruntime-int8", "peer_onnx.py", "--runtime onnxruntime --precision int8", true},
  };
  return all;
}

// Removes the peer's folder of inputs and outputs on every way out.
struct TempFolder {
  fs::path path;
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The exported ONNX graphs, shared by the ONNX peers of one bench run (peer_onnx.py --work) and
// removed when the command ends.
const std::string& graphs_folder() {
  static const TempFolder folder{fs::temp_directory_path() / fmt::format("ditmk-peer-graphs-{}", ::getpid())};
  return folder.path.native();
}

}  // namespace

std::vector<std::string> peer_names() {
  std::vector<std::string> names;
  for (const PeerScript& p : peers()) names.push_back(p.name);
  return names;
}

json run_peer(const std::string& name, const PeerInputs& in) {
  const auto peer = std::find_if(peers().begin(), peers().end(), [&](const PeerScript& p) { return p.name == name; });
  require(peer != peers().end(), "--peer '{}': not one of {}", name, fmt::join(peer_names(), ", "));
  const model::Weights& w = in.weights;
  require(w.checkpoint->is_release(), "--peer {} needs a release directory as --checkpoint", name);
  const TempFolder dir{fs::temp_directory_path() / fmt::format("ditmk-peer-{}-{}", name, ::getpid())};
  fs::create_directories(dir.path);
  const fs::path obs = dir.path / "obs.npz", noise = dir.path / "noise.npy", actions = dir.path / "actions.npy",
                 err = dir.path / "err";
  model::write_observation(in.observation, w.config, obs.string());
  Tensor n(DType::F32, {in.noise.rows, in.noise.cols});
  for (std::size_t i = 0; i < in.noise.data.size(); ++i) n.data<float>()[i] = float(in.noise.data[i]);
  io::write_npy(noise.string(), n.view());
  const std::string script = (fs::path(build::source_dir()) / "bench" / peer->script).string();
  const std::string cmd = fmt::format(
      "/usr/bin/python3 {} {} --checkpoint {} --observation {} --noise {} --embodiment {} --threads {} --runs {} "
      "--warmup {} --out {}{}{} 2>{}",
      script, peer->arguments, w.checkpoint->path(), obs.string(), noise.string(), in.embodiment, in.threads, in.runs,
      in.warmup, actions.string(), w.config.mask_padding ? " --mask-padding" : "",
      peer->shares_graphs ? " --work " + graphs_folder() : "", err.string());
  FILE* pipe = ::popen(cmd.c_str(), "r");
  require(pipe != nullptr, "--peer {}: cannot start python3", name);
  std::string out;
  char buf[4096];
  while (std::size_t got = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, got);
  if (::pclose(pipe) != 0) {
    const std::string why = io::read_text_file(err.string());  // the shell created it before the script ran
    // the script's last line is its error (a traceback ends with it)
    std::string last = why.substr(0, why.find_last_not_of('\n') + 1);
    last = last.substr(last.find_last_of('\n') + 1);
    fail("--peer {}: {} failed: {}", name, peer->script, last.empty() ? "no message" : last);
  }
  json report = json::parse(out, nullptr, false);
  require(report.is_object() && report.contains("median_ms_per_denoise") && report["median_ms_per_denoise"].is_number(),
          "--peer {}: unreadable report from {}", name, peer->script);
  Tensor got;
  try {
    got = io::read_npy(actions.string());
  } catch (const Error& e) {
    fail("--peer {}: no actions from {} ({})", name, peer->script, e.what());
  }
  require(got.dtype() == DType::F32 && got.shape() == std::vector<int64_t>{in.reference_actions.rows, in.reference_actions.cols},
          "--peer {}: actions of shape {} from {}, expected [{}, {}] float32", name, shape_str(got.shape()), peer->script,
          in.reference_actions.rows, in.reference_actions.cols);
  std::vector<double> values(got.numel());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = got.data<float>()[i];
  const Agreement a = agreement(values, in.reference_actions.data);
  report["peer"] = name;
  report["cos_vs_ref"] = a.cosine;
  report["rel_l2_vs_ref"] = a.rel_l2;
  return report;
}

}  // namespace ditmk::cli
