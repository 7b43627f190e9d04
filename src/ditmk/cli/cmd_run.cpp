// `ditmk run`: open the action head once (ditmk::ActionHead, the same class the Python module and
// the server use) and denoise one observation, --repeat times on the loaded head.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <nlohmann/json.hpp>

#include "ditmk/api/ditmk.hpp"
#include "ditmk/cli/commands.hpp"
#include "ditmk/cli/model_source.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/progress.hpp"
#include "ditmk/cpu/kernels/isa.hpp"
#include "ditmk/io/npy.hpp"

namespace ditmk::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct RunOptions {
  ModelSource model;
  std::string observation, embodiment, noise, backend = "cpu", out, dtype = "bf16", isa;
  uint64_t seed = 0;
  int image_token_id = -1, threads = 0, repeat = 1;
  bool json = false;
  // real-time chunking: the previous chunk's file and the four options, each set or not
  std::string previous_actions;
  model::RealTimeChunking rtc;
  std::vector<const CLI::Option*> rtc_flags;
};

// The real-time chunking flags all together with --previous-actions, or none of them.
std::optional<model::RealTimeChunking> rtc_options(const RunOptions& opt) {
  std::vector<std::string> given, missing;
  for (const CLI::Option* flag : opt.rtc_flags) (flag->count() ? given : missing).push_back(flag->get_name());
  if (opt.previous_actions.empty()) {
    if (!given.empty()) fail("{}: real-time chunking needs --previous-actions", given.front());
    return std::nullopt;
  }
  if (!missing.empty())
    fail("{}: missing (--previous-actions needs --rtc-horizon, --rtc-overlap, --rtc-frozen and --rtc-ramp-rate, as the "
         "released head needs its four options)", missing.front());
  return opt.rtc;
}

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

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
  const auto open_start = Clock::now();
  ActionHead head({opt.model.checkpoint, opt.model.version, opt.backend, opt.dtype, opt.threads, opt.isa,
                   opt.model.mask_padding, !opt.model.no_weight_cache});
  const double open_ms = ms_since(open_start);
  const ModelInfo& info = head.info();
  const model::Observation obs =
      opt.observation.empty() ? head.synthetic_observation(0) : head.load_observation(opt.observation, opt.image_token_id);
  CallOptions call;
  call.embodiment = opt.embodiment;
  call.seed = opt.seed;
  Tensor noise, previous;
  if (!opt.noise.empty()) {
    noise = io::read_npy(opt.noise);
    call.noise = noise.view();
    call.noise_name = opt.noise;
  }
  call.rtc = rtc_options(opt);
  if (call.rtc) {
    previous = io::read_npy(opt.previous_actions);
    call.previous_actions = previous.view();
    call.previous_actions_name = opt.previous_actions;
  }
  const int slot = head.embodiment_slot(opt.embodiment);
  model::DenoiseResult result;
  std::vector<double> call_ms;
  for (int i = 0; i < opt.repeat; ++i) {
    const auto start = Clock::now();
    result = head.get_action(obs, call);
    call_ms.push_back(ms_since(start));
  }
  for (const std::string& warning : result.warnings) fmt::print(stderr, "warning: {}\n", warning);
  if (!opt.out.empty()) write_output(opt.out, result);
  if (opt.json) {
    std::vector<std::vector<double>> rows;
    for (int r = 0; r < result.actions.rows; ++r) rows.emplace_back(result.actions.row(r), result.actions.row(r) + result.actions.cols);
    fmt::print("{}\n", nlohmann::json{{"version", info.version},
                                      {"checkpoint", info.checkpoint},
                                      {"backend", info.backend},
                                      {"isa", info.isa},
                                      {"embodiment", slot},
                                      {"horizon", info.horizon},
                                      {"action_dim", info.action_dim},
                                      {"open_ms", open_ms},
                                      {"weight_cache", info.weight_cache},
                                      {"ms", call_ms.back()},
                                      {"call_ms", call_ms},
                                      {"actions", rows}}.dump());
    return;
  }
  const std::string head_line = fmt::format("{} {} blocks, embodiment {}, backend {}", info.version, info.n_blocks, slot, info.backend);
  if (!is_terminal(stdout)) {  // a file or a pipe: one summary line
    std::vector<double> sorted = call_ms;
    std::sort(sorted.begin(), sorted.end());
    fmt::print("{}: opened in {:.1f} ms, actions [{}, {}] in {:.1f} ms{}{}\n", head_line, open_ms, info.horizon,
               info.action_dim, sorted[sorted.size() / 2], call_ms.size() > 1 ? fmt::format(" (median of {} calls)", call_ms.size()) : "",
               opt.out.empty() ? "" : ", wrote " + opt.out);
    return;
  }
  fmt::print("{}: opened in {:.1f} ms{}\n", head_line, open_ms,
             info.weight_cache == "mapped" ? " (packed weights mapped from the weight cache)" : "");
  for (std::size_t i = 0; i < call_ms.size(); ++i)
    fmt::print("  call {}: actions [{}, {}] in {:.1f} ms\n", i + 1, info.horizon, info.action_dim, call_ms[i]);
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
  add_model_options(*cmd, opt->model);
  add_weight_cache_flag(*cmd, opt->model);
  cmd->add_option("--observation", opt->observation, ".npz with features [S, ctx], optional attention_mask, image_mask, input_ids, state");
  cmd->add_option("--embodiment", opt->embodiment, "embodiment id or tag (default: new_embodiment)");
  cmd->add_option("--image-token-id", opt->image_token_id, "token id of image tokens in input_ids");
  cmd->add_option("--noise", opt->noise, ".npy [H, A] initial noise (default: seeded Gaussian)");
  cmd->add_option("--seed", opt->seed, "noise seed");
  cmd->add_option("--previous-actions", opt->previous_actions,
                  "N1.7 real-time chunking: .npy [H_prev, A], the previous chunk to inpaint from");
  opt->rtc_flags = {
      cmd->add_option("--rtc-horizon", opt->rtc.action_horizon, "rows of the previous chunk before padding (action_horizon)"),
      cmd->add_option("--rtc-overlap", opt->rtc.overlap_steps, "leading rows taken from the previous chunk (rtc_overlap_steps)"),
      cmd->add_option("--rtc-frozen", opt->rtc.frozen_steps, "leading rows that never move (rtc_frozen_steps)"),
      cmd->add_option("--rtc-ramp-rate", opt->rtc.ramp_rate, "steepness of the strength ramp (rtc_ramp_rate)")};
  cmd->add_option("--backend", opt->backend, "executor: cpu (fast, default), ref (float64 oracle), emu (emulated megakernel)")
      ->check(CLI::IsMember({"cpu", "ref", "emu"}));
  cmd->add_option("--dtype", opt->dtype, "weight format of the fast executor")->check(CLI::IsMember({"bf16", "bfp8_b", "fp32", "int8"}));
  cmd->add_option("--threads", opt->threads, "worker threads (default: one per core)")->check(CLI::Range(1, 1024));
  cmd->add_option("--isa", opt->isa, "cap the CPU instruction set")->check(CLI::IsMember(cpu::isa_names()));
  cmd->add_option("--repeat", opt->repeat, "calls on the one loaded head, each timed (load and per-call cost apart)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--out", opt->out, "actions as .npy (float32), or .npz with actions and per-step velocities (float64)");
  cmd->add_flag("--json", opt->json, "print the result as JSON");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace ditmk::cli
