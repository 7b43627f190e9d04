#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "ditmk/cli/backends.hpp"
#include "ditmk/cli/commands.hpp"
#include "ditmk/cli/model_source.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/model/config_json.hpp"
#include "ditmk/model/synthetic.hpp"

namespace ditmk::cli {

namespace {

struct RunOptions {
  ModelSource model;
  std::string observation, embodiment, noise, backend, out;
  uint64_t seed = 0;
  int image_token_id = -1;
  bool json = false;
  BackendOptions backend_options;
};

Tensor to_f32(const Matrix<double>& m) {
  Tensor t(DType::F32, {m.rows, m.cols});
  for (std::size_t i = 0; i < m.data.size(); ++i) t.data<float>()[i] = float(m.data[i]);
  return t;
}

Tensor stack_f64(const std::vector<Matrix<double>>& ms) {
  Tensor t(DType::F64, {int64_t(ms.size()), ms[0].rows, ms[0].cols});
  for (std::size_t s = 0; s < ms.size(); ++s)
    std::copy(ms[s].data.begin(), ms[s].data.end(), t.data<double>() + s * ms[s].data.size());
  return t;
}

void write_output(const std::string& path, const model::DenoiseResult& r) {
  const bool npz = path.size() > 4 && path.substr(path.size() - 4) == ".npz";
  if (!npz) {
    io::write_npy(path, to_f32(r.actions).view());
    return;
  }
  Tensor actions(DType::F64, {r.actions.rows, r.actions.cols});
  std::copy(r.actions.data.begin(), r.actions.data.end(), actions.data<double>());
  const Tensor velocities = stack_f64(r.velocities);
  io::write_npz(path, {{"actions", actions.view()}, {"velocities", velocities.view()}});
}

void run(const RunOptions& opt) {
  const model::Weights weights = load_model(opt.model);
  const model::ModelConfig& config = weights.config;
  const int embodiment = weights.resolve_embodiment(opt.embodiment.empty() ? default_embodiment(config) : opt.embodiment);
  int image_token = opt.image_token_id;
  if (image_token < 0) image_token = model::int_setting(weights.checkpoint->config(), nullptr, "image_token_index").value_or(-1);
  const model::Observation obs = opt.observation.empty()
                                     ? model::synthetic_observation(config, 0)
                                     : model::load_observation(opt.observation, config, image_token);
  const Matrix<double> noise = opt.noise.empty()
                                   ? model::noise_matrix(model::synthetic_noise(config, opt.seed).view(), config, "noise")
                                   : model::noise_matrix(io::read_npy(opt.noise).view(), config, opt.noise);
  const std::string backend = opt.backend.empty() ? backend_names().front() : opt.backend;
  const auto start = std::chrono::steady_clock::now();
  const model::DenoiseResult result = run_backend(backend, weights, embodiment, obs, noise, opt.backend_options);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  for (double v : result.actions.data)
    if (!std::isfinite(v)) fail("the {} backend produced non-finite actions", backend);
  if (!opt.out.empty()) write_output(opt.out, result);
  if (opt.json) {
    std::vector<std::vector<double>> rows;
    for (int r = 0; r < result.actions.rows; ++r) rows.emplace_back(result.actions.row(r), result.actions.row(r) + result.actions.cols);
    fmt::print("{}\n", nlohmann::json{{"version", model::version_name(config.version)},
                                      {"checkpoint", weights.checkpoint->path()},
                                      {"backend", backend},
                                      {"embodiment", embodiment},
                                      {"horizon", config.horizon},
                                      {"action_dim", config.action_dim},
                                      {"ms", ms},
                                      {"actions", rows}}.dump());
    return;
  }
  fmt::print("{} {} blocks, embodiment {}, backend {}: actions [{}, {}] in {:.1f} ms\n", model::version_name(config.version),
             config.n_blocks, embodiment, backend, config.horizon, config.action_dim, ms);
  for (int r = 0; r < std::min(result.actions.rows, 4); ++r) {
    fmt::print("  a[{}] =", r);
    for (int i = 0; i < std::min(result.actions.cols, 6); ++i) fmt::print(" {:+.4f}", result.actions(r, i));
    fmt::print("{}\n", result.actions.cols > 6 ? " ..." : "");
  }
  if (!opt.out.empty()) fmt::print("wrote {}\n", opt.out);
}

}  // namespace

void add_run(CLI::App& app) {
  auto opt = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand("run", "denoise one action chunk");
  cmd->add_option("--checkpoint", opt->model.checkpoint, "release directory or .safetensors (default: built-in model)");
  cmd->add_option("--version", opt->model.version, "version of the built-in model")->check(CLI::IsMember({"n15", "n16", "n17"}));
  cmd->add_option("--observation", opt->observation, ".npz with features [S, ctx], optional attention_mask, image_mask, input_ids, state");
  cmd->add_option("--embodiment", opt->embodiment, "embodiment id or tag (default: new_embodiment)");
  cmd->add_option("--image-token-id", opt->image_token_id, "token id of image tokens in input_ids");
  cmd->add_option("--noise", opt->noise, ".npy [H, A] initial noise (default: seeded Gaussian)");
  cmd->add_option("--seed", opt->seed, "noise seed");
  cmd->add_option("--backend", opt->backend, "executor (default: the fastest)")->check(CLI::IsMember(backend_names()));
  cmd->add_option("--dtype", opt->backend_options.dtype, "weight format of the fast executor")->check(CLI::IsMember({"bf16", "bfp8_b", "fp32", "int8"}));
  cmd->add_option("--threads", opt->backend_options.threads, "worker threads (default: one per core)")->check(CLI::Range(1, 1024));
  cmd->add_option("--isa", opt->backend_options.isa, "cap the CPU instruction set")->check(CLI::IsMember({"portable", "avx2", "avx512", "amx"}));
  cmd->add_option("--out", opt->out, "actions as .npy (float32), or .npz with actions and per-step velocities (float64)");
  cmd->add_flag("--json", opt->json, "print the result as JSON");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace ditmk::cli
