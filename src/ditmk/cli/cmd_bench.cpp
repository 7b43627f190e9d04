// `ditmk bench`: time one backend on one model side by side with this machine's limits (streaming
// bandwidth and the GEMM instruction's arithmetic peak, measured in the same run) and, on request,
// with peers (bench_peers.hpp). Medians of >= 5 timed runs after warm-up; accuracy of the timed output
// against the float64 reference. int8 is timed beside bf16 in the same run (runs interleaved), each
// against the peak of its own instruction; --reuse-vl times calls reusing the kept VL work beside
// the full calls the same way.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "ditmk/cli/bench_batch.hpp"
#include "ditmk/cli/bench_peers.hpp"
#include "ditmk/cli/commands.hpp"
#include "ditmk/cli/model_source.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/metrics.hpp"
#include "ditmk/core/parallel.hpp"
#include "ditmk/cpu/engine.hpp"
#include "ditmk/cpu/compute_peak.hpp"
#include "ditmk/cpu/kernels/isa.hpp"
#include "ditmk/cpu/stream_bandwidth.hpp"
#include "ditmk/cpu/vision_language_cache.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/ref/action_head.hpp"

namespace ditmk::cli {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

struct BenchOptions {
  ModelSource model;
  std::string backend = "cpu", dtype = "bf16", isa, observation, embodiment;
  std::vector<std::string> peers;
  int threads = 0, runs = 5, warmup = 1;
  uint64_t seed = 0;
  bool json = false;
  bool reuse_vl = false;  // also time calls that reuse the kept vision-language work
  int batch = 0;          // also time batched denoises of up to this many samples against single calls
};

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Spread {
  double median = 0, min = 0, max = 0;
};
Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return {n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]), v.front(), v.back()};
}

struct Timings {
  std::vector<double> denoise_ms, loop_ms;
  std::vector<double> reused_vl_ms;  // --reuse-vl: whole calls whose VL work was kept from the last
  bool reused_vl_bit_identical = true;  // every such call's actions were the full call's bytes
  std::size_t reused_vl_kept_bytes = 0;  // what the head keeps for that reuse
  model::DenoiseResult last;
  json engine;
  double bytes_per_step = 0, bytes_per_denoise = 0, flops_per_denoise = 0, precompute_flops = 0, load_s = 0;
  // Per run: the precompute's milliseconds (the whole call less its 4-step loop).
  std::vector<double> precompute_ms() const {
    std::vector<double> ms;
    for (std::size_t i = 0; i < denoise_ms.size(); ++i) ms.push_back(denoise_ms[i] - loop_ms[i]);
    return ms;
  }
};

// Multiply-adds of the per-call precompute: every packed precompute matrix applied to its rows.
double precompute_flops(const cpu::PackedModel& pm, int tokens) {
  double flops = 0;
  for (const auto& [source, l] : pm.precompute) {
    const bool state_encoder = l.k() == pm.config.state_dim || (l.n() == pm.config.dims.width && l.k() == pm.config.dims.hidden);
    flops += 2.0 * (state_encoder ? 1 : tokens) * double(l.n()) * double(l.k());
  }
  return flops;
}

// Engines for each format, warmed up, then timed in turn run after run, so that a shared machine's
// slow moments fall on all of them alike.
std::vector<Timings> time_cpu(const BenchOptions& o, const model::Weights& w, int embodiment,
                              const model::Observation& obs, const Matrix<double>& noise, int threads,
                              const std::vector<cpu::WeightFormat>& formats) {
  std::vector<Timings> t(formats.size());
  std::vector<std::unique_ptr<cpu::Engine>> engines;
  std::vector<cpu::VisionLanguageCache> kept(formats.size());
  for (std::size_t f = 0; f < formats.size(); ++f) {
    const auto load = Clock::now();
    engines.push_back(std::make_unique<cpu::Engine>(w, embodiment, cpu::EngineOptions{threads, formats[f], o.isa}));
    t[f].load_s = ms_since(load) / 1e3;
    for (int i = 0; i < o.warmup; ++i) engines[f]->run(obs, noise);
    if (o.reuse_vl) engines[f]->denoise(kept[f].inputs(*engines[f], obs), noise);  // keeps this observation's VL work
    t[f].reused_vl_kept_bytes = kept[f].bytes();
  }
  for (int i = 0; i < o.runs; ++i) {
    for (std::size_t f = 0; f < formats.size(); ++f) {
      const auto start = Clock::now();
      const auto in = engines[f]->precompute(obs);
      const auto loop = Clock::now();
      t[f].last = engines[f]->denoise(in, noise);
      t[f].loop_ms.push_back(ms_since(loop));
      t[f].denoise_ms.push_back(ms_since(start));
      if (!o.reuse_vl) continue;
      // The reused call as a head runs it: compare the features and masks with the kept ones, compute
      // the state token, denoise.
      const auto reused_start = Clock::now();
      const model::DenoiseResult reused = engines[f]->denoise(kept[f].inputs(*engines[f], obs), noise);
      t[f].reused_vl_ms.push_back(ms_since(reused_start));
      require(kept[f].last_reused(), "bench --reuse-vl: the kept vision-language work was not reused");
      t[f].reused_vl_bit_identical = t[f].reused_vl_bit_identical && reused.actions.data == t[f].last.actions.data;
    }
  }
  std::vector<std::string> isas;
  for (cpu::Isa isa : cpu::supported_isas()) isas.emplace_back(cpu::isa_name(isa));
  for (std::size_t f = 0; f < formats.size(); ++f) {
    const cpu::Engine& engine = *engines[f];
    const cpu::PackedModel& pm = engine.packed();
    t[f].bytes_per_step = double(pm.step_weight_bytes(engine.packed_embodiment()));
    t[f].bytes_per_denoise = pm.config.n_steps * t[f].bytes_per_step + double(pm.precompute_weight_bytes());
    t[f].precompute_flops = precompute_flops(pm, obs.tokens());
    t[f].flops_per_denoise = pm.config.n_steps * pm.step_flops(engine.packed_embodiment()) + t[f].precompute_flops;
    t[f].engine = {{"isa", cpu::isa_name(engine.isa())}, {"supported_isas", isas}, {"threads", engine.threads()},
                   {"weight_format", cpu::weight_format_name(formats[f])}};
    if (formats[f] == cpu::WeightFormat::int8) t[f].engine["int8_dot"] = cpu::int8_dot_name(cpu::int8_dot_for(engine.isa()));
    // which path ran and why: how it was chosen and, where measured, each candidate's time
    const cpu::IsaChoice& choice = engine.isa_choice();
    json measured = json::object();
    for (const cpu::IsaTiming& c : choice.timings) measured[std::string(cpu::isa_name(c.isa))] = c.ms;
    t[f].engine["isa_choice"] = {{"source", choice.source}, {"candidate_ms", measured}};
  }
  return t;
}

Timings time_ref(const BenchOptions& o, const model::Weights& w, int embodiment, const model::Observation& obs,
                 const Matrix<double>& noise, int threads) {
  Timings t;
  const auto load = Clock::now();
  const ref::ActionHead head(w, embodiment, threads);
  t.load_s = ms_since(load) / 1e3;
  for (int i = 0; i < o.warmup; ++i) head.run(obs, noise);
  for (int i = 0; i < o.runs; ++i) {
    const auto start = Clock::now();
    t.last = head.run(obs, noise);
    t.denoise_ms.push_back(ms_since(start));
    t.loop_ms.push_back(t.denoise_ms.back());  // the reference does not separate its precompute
  }
  // bytes as stored in the checkpoint: every weight read once per step, the precompute's once
  double step = 0;
  for (const auto& b : w.blocks)
    for (const model::Linear* l : {&b.q, &b.out, &b.ff1, &b.ff2}) step += double(l->weight.nbytes());
  t.bytes_per_step = step;
  t.bytes_per_denoise = w.config.n_steps * step;
  t.engine = {{"isa", "float64"}, {"threads", threads}, {"weight_format", "checkpoint"}};
  return t;
}

// Accuracy of a run against the reference: actions, and the worst step's velocity.
json accuracy(const model::DenoiseResult& got, const model::DenoiseResult& reference) {
  const Agreement actions = agreement(got.actions.data, reference.actions.data);
  double max_step_rel_l2 = 0, min_step_cos = 1;
  for (std::size_t s = 0; s < reference.velocities.size(); ++s) {
    const Agreement v = agreement(got.velocities[s].data, reference.velocities[s].data);
    max_step_rel_l2 = std::max(max_step_rel_l2, v.rel_l2);
    min_step_cos = std::min(min_step_cos, v.cosine);
  }
  return {{"cos_vs_ref", actions.cosine}, {"rel_l2_vs_ref", actions.rel_l2}, {"max_step_rel_l2_vs_ref", max_step_rel_l2},
          {"min_step_cos_vs_ref", min_step_cos}};
}

// The other physical floor of a cpu run: its matrix multiply-adds at the measured peak of the
// instruction its GEMM runs (attention, norms and epilogues are left out, so this floor is a lower
// bound too).
// The compute floor, and where the call stands against the peak: its precompute (the VL tokens'
// products) and its 4-step loop apart, each its matrix multiply-adds over its median time.
json compute_floor(cpu::WorkerPool& pool, const Timings& t, double median_ms) {
  const cpu::ComputePeak peak = cpu::measure_compute_peak(pool, cpu::parse_isa(t.engine["isa"].get<std::string>()),
                                                          cpu::parse_weight_format(t.engine["weight_format"].get<std::string>()), 5);
  const double floor_ms = t.flops_per_denoise / peak.flops_per_second * 1e3;
  const double precompute_rate = t.precompute_flops / (spread(t.precompute_ms()).median * 1e-3);
  const double steps_rate = (t.flops_per_denoise - t.precompute_flops) / (spread(t.loop_ms).median * 1e-3);
  return {{"compute_peak_gflops", peak.flops_per_second / 1e9},
          {"compute_peak_instruction", peak.instruction},
          {"compute_floor_ms_per_denoise", floor_ms},
          {"ratio_to_compute_floor", median_ms / floor_ms},
          {"precompute_flops", t.precompute_flops},
          {"achieved_gflops_precompute", precompute_rate / 1e9},
          {"achieved_gflops_steps", steps_rate / 1e9},
          {"precompute_fraction_of_peak", precompute_rate / peak.flops_per_second},
          {"steps_fraction_of_peak", steps_rate / peak.flops_per_second}};
}

json bench(const BenchOptions& o) {
  const model::Weights w = load_model(o.model);
  const model::ModelConfig& c = w.config;
  const int embodiment = w.resolve_embodiment(o.embodiment.empty() ? model::default_embodiment(c) : o.embodiment);
  const int threads = o.threads > 0 ? o.threads : hardware_threads();
  const model::Observation obs =
      o.observation.empty() ? model::synthetic_observation(c, 0) : model::load_observation(o.observation, c);
  const Matrix<double> noise = model::noise_matrix(model::synthetic_noise(c, o.seed).view(), c, "noise");

  const auto ref_start = Clock::now();
  const model::DenoiseResult reference = ref::ActionHead(w, embodiment, threads).run(obs, noise);
  const double ref_ms = ms_since(ref_start);

  std::vector<Timings> runs;
  if (o.backend == "cpu") {
    std::vector<cpu::WeightFormat> formats = {cpu::parse_weight_format(o.dtype)};
    if (formats[0] == cpu::WeightFormat::int8) formats.push_back(cpu::WeightFormat::bf16);
    runs = time_cpu(o, w, embodiment, obs, noise, threads, formats);
  } else {
    runs.push_back(time_ref(o, w, embodiment, obs, noise, threads));
  }
  const Timings& t = runs[0];

  cpu::WorkerPool pool(threads);
  const cpu::StreamBandwidth bw = cpu::measure_stream_bandwidth(pool, cpu::default_stream_buffer_bytes(), 5);

  const Spread denoise = spread(t.denoise_ms), loop = spread(t.loop_ms);
  const double floor_ms = t.bytes_per_denoise / bw.bytes_per_second * 1e3;
  json report = {
      {"version", model::version_name(c.version)},
      {"checkpoint", w.checkpoint->path()},
      {"backend", o.backend},
      {"engine", t.engine},
      {"threads", threads},
      {"runs", o.runs},
      {"warmup", o.warmup},
      {"tokens", obs.tokens()},
      {"load_seconds", t.load_s},
      {"median_ms_per_denoise", denoise.median},
      {"min_ms_per_denoise", denoise.min},
      {"max_ms_per_denoise", denoise.max},
      {"median_ms_per_step", loop.median / c.n_steps},
      {"min_ms_per_step", loop.min / c.n_steps},
      {"max_ms_per_step", loop.max / c.n_steps},
      {"median_ms_precompute", denoise.median - loop.median},
      {"weight_bytes_per_step", t.bytes_per_step},
      {"weight_bytes_per_denoise", t.bytes_per_denoise},
      {"achieved_gbps", t.bytes_per_denoise / (denoise.median * 1e-3) / 1e9},
      {"achieved_gflops", t.flops_per_denoise / (denoise.median * 1e-3) / 1e9},
      {"flops_per_denoise", t.flops_per_denoise},
      {"stream_bandwidth_gbps", bw.bytes_per_second / 1e9},
      {"stream_buffer_bytes", bw.buffer_bytes},
      {"floor_ms_per_denoise", floor_ms},
      {"ratio_to_floor", denoise.median / floor_ms},
      {"ref_ms", ref_ms},
  };
  report.update(accuracy(t.last, reference));
  if (o.backend == "cpu") {
    const json floor = compute_floor(pool, t, denoise.median);
    report.update(floor);
    report["bound"] = floor["compute_floor_ms_per_denoise"].get<double>() > floor_ms ? "compute" : "bandwidth";
  }
  if (runs.size() > 1) {  // int8: bf16 timed in the same run
    const Timings& b = runs[1];
    const Spread bd = spread(b.denoise_ms), bl = spread(b.loop_ms);
    json bf16 = {{"engine", b.engine},
                 {"median_ms_per_denoise", bd.median},
                 {"min_ms_per_denoise", bd.min},
                 {"max_ms_per_denoise", bd.max},
                 {"median_ms_per_step", bl.median / c.n_steps},
                 {"median_ms_precompute", bd.median - bl.median},
                 {"weight_bytes_per_step", b.bytes_per_step}};
    bf16.update(accuracy(b.last, reference));
    bf16.update(compute_floor(pool, b, bd.median));
    report["bf16_same_run"] = bf16;
    report["speedup_vs_bf16"] = bd.median / denoise.median;
  }
  for (const std::string& name : o.peers) {
    json peer = run_peer(name, {w, embodiment, obs, noise, reference.actions, threads, o.runs, o.warmup});
    peer["speedup"] = peer["median_ms_per_denoise"].get<double>() / denoise.median;
    report["peers"].push_back(peer);
  }
  if (o.reuse_vl) {
    const Spread reused = spread(t.reused_vl_ms);
    report["reuse_vl"] = {{"median_ms_per_call", reused.median},
                          {"min_ms_per_call", reused.min},
                          {"max_ms_per_call", reused.max},
                          {"ratio_to_full_call", reused.median / denoise.median},
                          {"kept_bytes", t.reused_vl_kept_bytes},
                          {"bit_identical", t.reused_vl_bit_identical}};
  }
  if (o.batch > 0) {
    std::vector<cpu::WeightFormat> formats = {cpu::parse_weight_format(o.dtype)};
    if (formats[0] == cpu::WeightFormat::int8) formats.push_back(cpu::WeightFormat::bf16);
    report["batch"] = time_batches({o.batch, std::min(o.runs, 3), threads, o.isa, embodiment}, w, formats);
  }
  return report;
}

void print_report(const json& r) {
  fmt::print("ditmk bench: {} {} on {} threads ({}, {} weights)\n", r["version"].get<std::string>(),
             r["backend"].get<std::string>(), r["threads"].get<int>(), r["engine"]["isa"].get<std::string>(),
             r["engine"]["weight_format"].get<std::string>());
  const json& choice = r["engine"].value("isa_choice", json::object());
  if (!choice.empty()) {
    std::string measured;
    for (const auto& [isa, ms] : choice["candidate_ms"].items())
      measured += fmt::format("{}{} {:.2f} ms", measured.empty() ? "; one block's products: " : ", ", isa, ms.get<double>());
    fmt::print("  path           {} ({}{})\n", r["engine"]["isa"].get<std::string>(), choice["source"].get<std::string>(),
               measured);
  }
  fmt::print("  per denoise    median {:9.2f} ms  (min {:.2f}, max {:.2f}; {} runs after {} warm-up)\n",
             r["median_ms_per_denoise"].get<double>(), r["min_ms_per_denoise"].get<double>(),
             r["max_ms_per_denoise"].get<double>(), r["runs"].get<int>(), r["warmup"].get<int>());
  fmt::print("  per step       median {:9.2f} ms  (min {:.2f}, max {:.2f}); precompute {:.2f} ms\n",
             r["median_ms_per_step"].get<double>(), r["min_ms_per_step"].get<double>(), r["max_ms_per_step"].get<double>(),
             r["median_ms_precompute"].get<double>());
  fmt::print("  weights        {:.1f} MB per step, {:.1f} MB per denoise\n", r["weight_bytes_per_step"].get<double>() / 1e6,
             r["weight_bytes_per_denoise"].get<double>() / 1e6);
  fmt::print("  achieved       {:.2f} GB/s, {:.1f} GFLOP/s\n", r["achieved_gbps"].get<double>(), r["achieved_gflops"].get<double>());
  fmt::print("  machine        {:.2f} GB/s streaming read (same run, {} MB buffer)\n", r["stream_bandwidth_gbps"].get<double>(),
             r["stream_buffer_bytes"].get<std::size_t>() >> 20);
  fmt::print("  stream floor   {:.2f} ms per denoise; ratio to stream floor {:.2f}x\n", r["floor_ms_per_denoise"].get<double>(),
             r["ratio_to_floor"].get<double>());
  if (r.contains("compute_peak_gflops")) {
    const bool integer = r["engine"]["weight_format"].get<std::string>() == "int8";
    fmt::print("  machine        {:.1f} {} peak of {} on {} threads (same run)\n", r["compute_peak_gflops"].get<double>(),
               integer ? "GOP/s" : "GFLOP/s",
               r["compute_peak_instruction"].get<std::string>(), r["threads"].get<int>());
    fmt::print("  compute floor  {:.2f} ms per denoise; ratio to compute floor {:.2f}x ({}-bound here)\n",
               r["compute_floor_ms_per_denoise"].get<double>(), r["ratio_to_compute_floor"].get<double>(),
               r["bound"].get<std::string>());
    const double step_flops = r["flops_per_denoise"].get<double>() - r["precompute_flops"].get<double>();
    fmt::print("  against peak   precompute {:.1f} G at {:.1f} {} ({:.0f}%), steps {:.1f} G at {:.1f} {} ({:.0f}%)\n",
               r["precompute_flops"].get<double>() / 1e9, r["achieved_gflops_precompute"].get<double>(),
               integer ? "GOP/s" : "GFLOP/s", 100 * r["precompute_fraction_of_peak"].get<double>(), step_flops / 1e9,
               r["achieved_gflops_steps"].get<double>(), integer ? "GOP/s" : "GFLOP/s",
               100 * r["steps_fraction_of_peak"].get<double>());
  }
  fmt::print("  accuracy       cos {:.7f}, rel-L2 {:.2e} (actions); worst step velocity cos {:.7f}, rel-L2 {:.2e}\n",
             r["cos_vs_ref"].get<double>(), r["rel_l2_vs_ref"].get<double>(), r["min_step_cos_vs_ref"].get<double>(),
             r["max_step_rel_l2_vs_ref"].get<double>());
  if (r.contains("bf16_same_run")) {
    const json& b = r["bf16_same_run"];
    fmt::print("  bf16, same run median {:9.2f} ms per denoise (min {:.2f}, max {:.2f}); {:.1f} GFLOP/s peak of {}\n",
               b["median_ms_per_denoise"].get<double>(), b["min_ms_per_denoise"].get<double>(),
               b["max_ms_per_denoise"].get<double>(), b["compute_peak_gflops"].get<double>(),
               b["compute_peak_instruction"].get<std::string>());
    fmt::print("                 compute floor {:.2f} ms, ratio {:.2f}x; int8 speed-up over bf16 {:.2f}x\n",
               b["compute_floor_ms_per_denoise"].get<double>(), b["ratio_to_compute_floor"].get<double>(),
               r["speedup_vs_bf16"].get<double>());
  }
  for (const json& p : r.value("peers", json::array())) {
    const std::string what = p.contains("torch_version")
                                 ? fmt::format("torch {} bf16 eager", p["torch_version"].get<std::string>())
                                 : fmt::format("{} {}, ran {}", p.value("runtime", "?"), p.value("runtime_version", "?"),
                                               p.value("precision_run", "?"));
    fmt::print("  peer {:<17} median {:.2f} ms per denoise ({}); ditmk's speed-up {:.2f}x; cos {:.7f}, rel-L2 {:.2e}\n",
               p["peer"].get<std::string>(), p["median_ms_per_denoise"].get<double>(), what, p["speedup"].get<double>(),
               p["cos_vs_ref"].get<double>(), p["rel_l2_vs_ref"].get<double>());
  }
  if (r.contains("reuse_vl")) {
    const json& v = r["reuse_vl"];
    fmt::print("  VL reused      median {:9.2f} ms per call (min {:.2f}, max {:.2f}); {:.2f}x of a full call; actions {}; "
               "{:.1f} MB kept\n",
               v["median_ms_per_call"].get<double>(), v["min_ms_per_call"].get<double>(), v["max_ms_per_call"].get<double>(),
               v["ratio_to_full_call"].get<double>(), v["bit_identical"].get<bool>() ? "bit-identical" : "DIFFERENT",
               v["kept_bytes"].get<double>() / 1e6);
  }
  if (r.contains("batch")) print_batches(r["batch"]);
}

}  // namespace

void add_bench(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand("bench", "time a backend against this machine's streaming floor and the PyTorch peer");
  add_model_options(*cmd, o->model);
  cmd->add_option("--backend", o->backend, "cpu or ref")->check(CLI::IsMember({"cpu", "ref"}));
  cmd->add_option("--dtype", o->dtype, "weight format of the cpu backend (int8 is timed beside bf16)")->check(CLI::IsMember({"bf16", "bfp8_b", "fp32", "int8"}));
  cmd->add_option("--threads", o->threads, "threads (default: one per core)")->check(CLI::Range(1, 1024));
  cmd->add_option("--isa", o->isa, "cap the CPU instruction set")->check(CLI::IsMember(cpu::isa_names()));
  cmd->add_option("--runs", o->runs, "timed runs (>= 5)")->check(CLI::Range(5, 1000));
  cmd->add_option("--warmup", o->warmup, "untimed runs first")->check(CLI::Range(0, 100));
  cmd->add_option("--observation", o->observation, "observation .npz (default: synthetic)");
  cmd->add_option("--embodiment", o->embodiment, "embodiment id or tag");
  cmd->add_option("--seed", o->seed, "noise seed");
  cmd->add_option("--peer", o->peers, "also time a peer side by side (repeatable): the same head in eager PyTorch, or "
                  "exported to ONNX and run by OpenVINO or ONNX Runtime")
      ->check(CLI::IsMember(peer_names()));
  cmd->add_flag("--json", o->json, "print the report as JSON on stdout instead of the table");
  cmd->add_flag("--reuse-vl", o->reuse_vl,
                "also time calls that reuse the kept vision-language work (same features and masks, cpu backend), "
                "run after run beside the full calls");
  cmd->add_option("--batch", o->batch,
                  "also time batched denoises of B = 1, 2, 4, ... up to this many samples against as many single "
                  "calls (cpu backend; at most 3 runs)")
      ->check(CLI::Range(1, 256));
  cmd->callback([o] {
    if (o->batch > 0 && o->backend != "cpu") fail("--batch: the {} backend runs a batch one sample after another (use cpu)", o->backend);
    if (o->reuse_vl && o->backend != "cpu") fail("--reuse-vl: the {} backend recomputes the vision-language work (use cpu)", o->backend);
    const json report = bench(*o);
    if (o->json) fmt::print("{}\n", report.dump(2));
    else print_report(report);
  });
}

}  // namespace ditmk::cli
