// `ditmk run`: open the action head once (ditmk::ActionHead, the same class the Python module and
// the server use) and denoise one observation or a batch of them, --repeat times on the loaded head.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <type_traits>
#include <nlohmann/json.hpp>

#include "ditmk/api/ditmk.hpp"
#include "ditmk/cli/commands.hpp"
#include "ditmk/cli/model_source.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/progress.hpp"
#include "ditmk/cpu/kernels/isa.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/model/observation_batch.hpp"

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

// The results' matrices as one array: [B, rows, cols] for a batch, [rows, cols] for one call.
template <typename T>
Tensor stack(const std::vector<const Matrix<double>*>& ms, Shape leading) {
  Shape shape = std::move(leading);
  shape.push_back(ms[0]->rows), shape.push_back(ms[0]->cols);
  Tensor t(std::is_same_v<T, float> ? DType::F32 : DType::F64, shape);
  T* out = t.data<T>();
  for (const Matrix<double>* m : ms)
    for (double v : m->data) *out++ = T(v);
  return t;
}

// actions as .npy float32, or .npz with actions and per-step velocities (float64); a batch's arrays
// lead with its batch dimension.
void write_output(const std::string& path, const std::vector<model::DenoiseResult>& results, bool batch) {
  const bool npz = path.size() > 4 && path.substr(path.size() - 4) == ".npz";
  std::vector<const Matrix<double>*> actions, velocities;
  for (const auto& r : results) {
    actions.push_back(&r.actions);
    for (const auto& v : r.velocities) velocities.push_back(&v);
  }
  const Shape leading = batch ? Shape{int64_t(results.size())} : Shape{};
  if (!npz) {
    io::write_npy(path, stack<float>(actions, leading).view());
    return;
  }
  Shape steps = leading;
  steps.push_back(int64_t(results[0].velocities.size()));
  io::write_npz(path, {{"actions", stack<double>(actions, leading).view()}, {"velocities", stack<double>(velocities, steps).view()}});
}

// An .npz's observations: one, or a batch when its features lead with a batch dimension
// ([B, S, ctx], B > 1; every other array then leads with B too).
struct LoadedObservations {
  std::map<std::string, Tensor> arrays;  // what the batch's views point into
  std::vector<model::Observation> observations;
  bool batch = false;
};

LoadedObservations load_observations(const ActionHead& head, const RunOptions& opt) {
  LoadedObservations loaded;
  if (opt.observation.empty()) {
    loaded.observations.push_back(head.synthetic_observation(0));
    return loaded;
  }
  loaded.arrays = io::read_npz(opt.observation);
  const auto features = loaded.arrays.count("features") ? loaded.arrays.find("features") : loaded.arrays.find("backbone_features");
  loaded.batch = features != loaded.arrays.end() && features->second.shape().size() == 3 && features->second.shape()[0] > 1;
  if (!loaded.batch) {
    loaded.observations.push_back(head.load_observation(opt.observation, opt.image_token_id));
    return loaded;
  }
  if (opt.image_token_id >= 0)
    fail("--image-token-id: not taken with a batch ({} holds {} samples; the release's image token id is used)",
         opt.observation, features->second.shape()[0]);
  model::ObservationArrays views;
  for (const auto& [name, tensor] : loaded.arrays) views[name] = tensor.view();
  loaded.observations = head.observations(views, opt.observation);
  return loaded;
}

// A file's array, and for a batch its samples (the leading dimension must be the batch's).
std::vector<std::optional<TensorView>> per_sample(const Tensor& array, const std::string& path, std::size_t samples, bool batch) {
  std::vector<std::optional<TensorView>> views(samples);
  if (!batch) {
    views[0] = array.view();
    return views;
  }
  if (array.shape().empty() || array.shape()[0] != int64_t(samples))
    fail("{}: shape {} for a batch of {} observations (expected a leading dimension of {})", path, shape_str(array.shape()),
         samples, samples);
  for (std::size_t i = 0; i < samples; ++i) views[i] = model::sample_of(array.view(), int64_t(i));
  return views;
}

void run(const RunOptions& opt) {
  const auto open_start = Clock::now();
  ActionHead head({opt.model.checkpoint, opt.model.version, opt.backend, opt.dtype, opt.threads, opt.isa,
                   opt.model.mask_padding, !opt.model.no_weight_cache});
  const double open_ms = ms_since(open_start);
  const ModelInfo& info = head.info();
  const LoadedObservations loaded = load_observations(head, opt);
  const std::size_t samples = loaded.observations.size();
  // sample i: the same embodiment and RTC options, its own noise (from the file, or seed + i)
  std::vector<CallOptions> calls(samples);
  const std::optional<model::RealTimeChunking> rtc = rtc_options(opt);
  Tensor noise, previous;
  std::vector<std::optional<TensorView>> noises(samples), previouses(samples);
  if (!opt.noise.empty()) noise = io::read_npy(opt.noise), noises = per_sample(noise, opt.noise, samples, loaded.batch);
  if (rtc)
    previous = io::read_npy(opt.previous_actions),
    previouses = per_sample(previous, opt.previous_actions, samples, loaded.batch);
  for (std::size_t i = 0; i < samples; ++i) {
    CallOptions& call = calls[i];
    call.embodiment = opt.embodiment;
    call.seed = opt.seed + i;
    call.noise = noises[i], call.noise_name = opt.noise;
    call.rtc = rtc, call.previous_actions = previouses[i], call.previous_actions_name = opt.previous_actions;
  }
  const int slot = head.embodiment_slot(opt.embodiment);
  std::vector<model::DenoiseResult> results;
  std::vector<double> call_ms;
  for (int i = 0; i < opt.repeat; ++i) {
    const auto start = Clock::now();
    results = head.get_actions(loaded.observations, calls);
    call_ms.push_back(ms_since(start));
  }
  for (std::size_t i = 0; i < results.size(); ++i)
    for (const std::string& warning : results[i].warnings)
      fmt::print(stderr, "warning: {}{}\n", loaded.batch ? fmt::format("sample {}: ", i) : "", warning);
  if (!opt.out.empty()) write_output(opt.out, results, loaded.batch);
  const std::string shape = loaded.batch ? fmt::format("[{}, {}, {}]", samples, info.horizon, info.action_dim)
                                         : fmt::format("[{}, {}]", info.horizon, info.action_dim);
  if (opt.json) {
    auto rows_of = [](const Matrix<double>& m) {
      std::vector<std::vector<double>> rows;
      for (int r = 0; r < m.rows; ++r) rows.emplace_back(m.row(r), m.row(r) + m.cols);
      return rows;
    };
    nlohmann::json actions = nlohmann::json::array();
    for (const auto& r : results) actions.push_back(rows_of(r.actions));
    fmt::print("{}\n", nlohmann::json{{"version", info.version},
                                      {"checkpoint", info.checkpoint},
                                      {"backend", info.backend},
                                      {"isa", info.isa},
                                      {"embodiment", slot},
                                      {"horizon", info.horizon},
                                      {"action_dim", info.action_dim},
                                      {"batch", loaded.batch ? nlohmann::json(samples) : nlohmann::json()},
                                      {"open_ms", open_ms},
                                      {"weight_cache", info.weight_cache},
                                      {"ms", call_ms.back()},
                                      {"call_ms", call_ms},
                                      {"actions", loaded.batch ? actions : actions[0]}}.dump());
    return;
  }
  const std::string head_line = fmt::format("{} {} blocks, embodiment {}, backend {}", info.version, info.n_blocks, slot, info.backend);
  if (!is_terminal(stdout)) {  // a file or a pipe: one summary line
    std::vector<double> sorted = call_ms;
    std::sort(sorted.begin(), sorted.end());
    fmt::print("{}: opened in {:.1f} ms, actions {} in {:.1f} ms{}{}\n", head_line, open_ms, shape,
               sorted[sorted.size() / 2], call_ms.size() > 1 ? fmt::format(" (median of {} calls)", call_ms.size()) : "",
               opt.out.empty() ? "" : ", wrote " + opt.out);
    return;
  }
  fmt::print("{}: opened in {:.1f} ms{}\n", head_line, open_ms,
             info.weight_cache == "mapped" ? " (packed weights mapped from the weight cache)" : "");
  for (std::size_t i = 0; i < call_ms.size(); ++i) fmt::print("  call {}: actions {} in {:.1f} ms\n", i + 1, shape, call_ms[i]);
  for (std::size_t b = 0; b < results.size(); ++b) {
    const Matrix<double>& a = results[b].actions;
    if (loaded.batch) fmt::print("  sample {}:\n", b);
    for (int r = 0; r < std::min(a.rows, 4); ++r) {
      fmt::print("  a[{}] =", r);
      for (int i = 0; i < std::min(a.cols, 6); ++i) fmt::print(" {:+.4f}", a(r, i));
      fmt::print("{}\n", a.cols > 6 ? " ..." : "");
    }
  }
  if (!opt.out.empty()) fmt::print("wrote {}\n", opt.out);
}

}  // namespace

void add_run(CLI::App& app) {
  auto opt = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand("run", "denoise one action chunk");
  add_model_options(*cmd, opt->model);
  add_weight_cache_flag(*cmd, opt->model);
  cmd->add_option("--observation", opt->observation,
                  ".npz with features [S, ctx], optional attention_mask, image_mask, input_ids, state; a batch: features "
                  "[B, S, ctx] and every array with the leading B (run as one call; actions [B, H, A])");
  cmd->add_option("--embodiment", opt->embodiment, "embodiment id or tag (default: new_embodiment)");
  cmd->add_option("--image-token-id", opt->image_token_id, "token id of image tokens in input_ids");
  cmd->add_option("--noise", opt->noise, ".npy [H, A] initial noise, [B, H, A] for a batch (default: seeded Gaussian)");
  cmd->add_option("--seed", opt->seed, "noise seed (sample i of a batch: seed + i)");
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
