// `ditmk emulate`: runs a program on the emulated Blackhole chip and reports what it found: the
// acceptance linear layer (--program linear) or the DiT megakernel (--program dit, or any
// --variant) of a model against the float64 reference.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <nlohmann/json.hpp>

#include "ditmk/cli/commands.hpp"
#include "ditmk/cli/model_source.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/progress.hpp"
#include "ditmk/core/parallel.hpp"
#include "ditmk/core/rng.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/ref/action_head.hpp"
#include "ditmk/tt/emu/linear_program.hpp"
#include "ditmk/tt/generic_op/descriptor_runner.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/tt/emu/chrome_trace.hpp"
#include "ditmk/tt/host/emu_report.hpp"
#include "ditmk/tt/host/timing_report.hpp"
#include "ditmk/tt/host/timing_sweep.hpp"

namespace ditmk::cli {

namespace {

struct EmulateArgs {
  std::string program = "linear";
  std::string dtype = "bf16";
  std::string report;
  uint64_t seed = 1;
  uint32_t launches = 2;
  uint32_t cb_w_pages = 0;
  // the DiT megakernel
  ModelSource model;
  std::string variant;
  std::string embodiment;
  int n_blocks = 0;  // 0: all of the model's blocks
  std::string protocol = "seed";
  bool timing = false;
  std::string trace;
  bool sweep = false;
  // a tt-metal program as a ProgramDescriptor
  std::string descriptor;
  std::string data;
  std::string kernel_cache;
  std::string kernel_root;
  double watchdog = tt::emu::kDefaultWatchdogSeconds;
  bool strict = false;
};

std::string trace_json(const tt::emu::TimingResult& timing) {
  std::ostringstream out;
  tt::emu::write_chrome_trace(timing, out);
  return out.str();
}

void write_report(const std::string& path, const nlohmann::json& report) {
  if (path.empty()) return;
  std::ofstream out(path);
  require(bool(out), "--report: cannot write '{}'", path);
  out << report.dump(2) << '\n';
  require(bool(out), "--report: writing '{}' failed", path);
}

void run_linear_program(const EmulateArgs& args) {
  using namespace ditmk::tt::emu;
  LinearOptions options;
  options.weight_format = tt::parse_tile_format(args.dtype);
  require(options.weight_format != tt::TileFormat::fp32, "--dtype: weights stream as bf16 or bfp8_b, not fp32");
  require(args.launches >= 1, "--launches: must be at least 1");
  options.seed = args.seed;
  options.launches = args.launches;
  options.cb_w_pages = args.cb_w_pages;
  const LinearRun run = run_linear(options);
  write_report(args.report, to_json(run, options));
  const LaunchReport& last = run.launches.back();
  if (!run.clean) {
    for (const Fault& fault : last.faults) fmt::print("fault: {}\n", to_string(fault));
    fail("emulate: program '{}' faulted", args.program);
  }
  fmt::print("linear [64,1536]x[1536,6144] {}: max_abs_err_vs_host {:.3g} (|y| up to {:.3g}), {} launches {}\n",
             args.dtype, run.max_abs_err_vs_host, run.max_abs_host, run.launches.size(),
             run.launches_identical ? "identical" : "DIFFER");
  fmt::print("dram bytes read {} (expected {}), time lower bound {:.2f} us ({}), wall {:.2f} s per launch\n",
             last.counters.dram_read_bytes(), run.expected_dram_bytes, last.bound.seconds * 1e6,
             last.bound.limited_by, run.wall_seconds_per_launch);
  require(run.launches_identical, "emulate: launches left different results");
  require(last.counters.dram_read_bytes() == run.expected_dram_bytes,
          "emulate: DRAM bytes read {} differ from the weight bytes {}", last.counters.dram_read_bytes(),
          run.expected_dram_bytes);
}

void print_dit_report(const tt::host::EmuResult& r, const tt::host::VsReference& vs) {
  using namespace ditmk::tt;
  const emu::LaunchReport& last = r.launches.back().report;
  fmt::print("{} {} {} x{} blocks: vs float64 reference cos {:.6f} rel-L2 {:.3g}", model::version_name(r.layout.version),
             variant_name(r.layout.variant), tile_format_name(r.layout.dtype_stream), r.layout.n_blocks,
             vs.actions.cos, vs.actions.rel_l2);
  if (r.layout.variant != Variant::block) fmt::print(", worst step velocity rel-L2 {:.3g}", vs.max_step_rel_l2);
  fmt::print("\n");
  fmt::print("chip counters: dram read {} B, written {} B; noc0 {} B in {} transfers, noc1 {} B in {} transfers\n",
             last.counters.dram_read_bytes(), last.counters.dram_write_bytes(), last.counters.noc[0].bytes,
             last.counters.noc[0].transfers, last.counters.noc[1].bytes, last.counters.noc[1].transfers);
  fmt::print("time lower bound {:.1f} us ({}); launches {}{}\n", last.bound.seconds * 1e6, last.bound.limited_by,
             r.launches.size(), r.launches.size() > 1 ? (r.launches_identical ? ", identical" : ", DIFFER") : "");
  fmt::print("CB high-water marks (used / planned bytes):\n");
  for (const emu::CbHighWater& cb : tt::host::high_water_by_name(last.counters)) {
    fmt::print("  {:<13} #{:<2} {:>9} / {:>9}  on {}{}\n", cb.name, cb.id, cb.used_bytes, cb.planned_bytes,
               emu::core_name(cb.core), cb.used_bytes > cb.planned_bytes ? "  OVER" : "");
  }
  fmt::print("per block (one step): arena bytes, streamed this launch, DRAM-bound lower bound, seed's plan\n");
  for (const tt::host::BlockRow& row : tt::host::block_table(r)) {
    fmt::print("  blk{:<3} {:>11} B  {:>11} B ({} x)  {:>7.1f} us  {:>5.1f} us\n", row.block, row.arena_bytes,
               row.streamed_bytes, row.steps, row.dram_bound_seconds * 1e6, tt::host::kPlannedBlockSeconds * 1e6);
  }
  double wall = 0;
  for (const auto& l : r.launches) wall += l.wall_seconds;
  fmt::print("wall {:.1f} s for {} launch(es)\n", wall, r.launches.size());
  const tt::dialect::CompileStats& c = r.launches.back().compile;
  fmt::print("kernels: {} compiled ({:.2f} s), {} from the cache\n", c.compiled, c.compile_seconds, c.cache_hits);
}

void run_dit_program(const EmulateArgs& args) {
  using namespace ditmk::tt;
  const Variant variant = parse_variant(args.variant.empty() ? "steps4" : args.variant);
  const tt::Protocol protocol = tt::parse_protocol(args.protocol);
  const TileFormat dtype = parse_tile_format(args.dtype);
  require(dtype != TileFormat::fp32, "--dtype: the stream arena is bf16 or bfp8_b, not fp32");
  const model::Weights full = load_model(args.model);
  const model::Weights weights = first_blocks(full, args.n_blocks);
  const int embodiment =
      weights.resolve_embodiment(args.embodiment.empty() ? model::default_embodiment(weights.config) : args.embodiment);
  const model::Observation obs = model::synthetic_observation(weights.config, args.seed);
  const Matrix<double> noise =
      model::noise_matrix(model::synthetic_noise(weights.config, args.seed).view(), weights.config, "noise");
  const int threads = hardware_threads();
  const ref::ActionHead ref(weights, embodiment, threads);
  const bool timing = args.timing || !args.trace.empty();
  host::EmuOptions options{dtype, threads, protocol, 0, timing};
  if (!args.kernel_cache.empty()) options.kernel_cache = args.kernel_cache;
  const host::EmuExecutor emu(weights, embodiment, options);
  const auto call = emu.precompute(obs);
  host::EmuResult result;
  host::VsReference vs;
  if (variant == Variant::block) {
    Matrix<double> h(weights.config.m_rows(), weights.config.dims.width);
    CounterRng rng(args.seed, 17);
    for (std::size_t i = 0; i < h.data.size(); ++i) h.data[i] = rng.normal(i);
    result = emu.blocks(obs, call, h, 0, weights.config.n_blocks);
    for (int b = 0; b < weights.config.n_blocks; ++b) h = host::reference_block(weights, call, ref.step_tables(), b, 0, h);
    vs.actions = host::agreement(result.residual, h);
  } else {
    result = variant == Variant::steps4 ? emu.denoise(obs, call, noise, int(args.launches))
                                        : emu.denoise_by_steps(obs, call, noise);
    vs = host::compare_denoise(result.denoise, ref.denoise(call, noise));
  }
  nlohmann::json report = host::to_json(result, vs);
  std::string timing_lines;
  if (timing) {
    const host::TimingSummary summary = host::summarize_timing(result);
    report["timing"] = host::to_json(summary);
    timing_lines = host::timing_text(summary);
  }
  // the trace of the first launch (the step variant's first step)
  const std::string trace = args.trace.empty() ? "" : trace_json(*result.launches.front().report.timing);
  write_report(args.report, report);
  if (!args.trace.empty()) io::write_file_atomic(args.trace, trace);
  print_dit_report(result, vs);
  fmt::print("{}", timing_lines);
}

// The timing model over plan choices on the model's first blocks.
void run_sweep(const EmulateArgs& args) {
  using namespace ditmk::tt;
  const model::Weights full = load_model(args.model);
  const model::Weights weights = first_blocks(full, host::sweep_block_count(full.config));
  const int embodiment =
      weights.resolve_embodiment(args.embodiment.empty() ? default_embodiment(weights.config) : args.embodiment);
  const model::Observation obs = model::synthetic_observation(weights.config, args.seed);
  const int threads = hardware_threads();
  const auto call = host::EmuExecutor(weights, embodiment, {TileFormat::bf16, threads}).precompute(obs);
  std::vector<host::SweepRow> rows;
  for (const host::SweepChoice& choice : host::sweep_choices(weights.config, obs)) {
    rows.push_back(host::run_sweep_choice(weights, embodiment, obs, call, choice, threads));
    if (is_terminal(stderr))
      fmt::print(stderr, "swept {} {} {} slots\n", tt::protocol_name(choice.protocol),
                 tile_format_name(choice.dtype), choice.cb_w_slots);
  }
  write_report(args.report, {{"sweep", host::to_json(rows)}});
  fmt::print("{}", host::sweep_text(rows));
}

// ttnn.generic_op on the emulated chip: the descriptor's kernels compiled, its tensors in and out.
void run_descriptor_program(const EmulateArgs& args) {
  using namespace ditmk::tt;
  require(args.kernel_root.empty() || std::filesystem::is_directory(args.kernel_root),
          "--kernel-root: {} is not a folder", args.kernel_root);
  const dialect::ProgramDescriptor program = dialect::read_descriptor(
      args.descriptor, args.kernel_root.empty() ? dialect::KernelRootOption{} : dialect::KernelRootOption{args.kernel_root});
  dialect::RunOptions options;
  options.data_dir = args.data;
  if (!args.kernel_cache.empty()) options.kernel_cache = args.kernel_cache;
  options.timing = args.timing || !args.trace.empty();
  options.watchdog_seconds = args.watchdog;
  options.strict = args.strict;
  const dialect::DescriptorRun run = dialect::run_descriptor(program, options);
  const nlohmann::json report = dialect::run_report(program, run);
  for (const std::string& warning : run.report.warnings) fmt::print(stderr, "warning: {}\n", warning);
  if (!run.report.clean()) {
    write_report(args.report, report);
    for (const emu::Fault& fault : run.report.faults) fmt::print("fault: {}\n", emu::to_string(fault));
    fail("emulate: program '{}' ({}) faulted", program.name, args.descriptor);
  }
  if (run.report.timing && !args.trace.empty()) io::write_file_atomic(args.trace, trace_json(*run.report.timing));
  write_report(args.report, report);
  std::set<emu::CoreCoord> cores;
  for (const dialect::KernelDescriptor& k : program.kernels) {
    for (emu::CoreCoord core : dialect::cores_of(k.core_ranges)) cores.insert(core);
  }
  fmt::print("{}: {} kernel(s) on {} core(s): clean; {} output(s) written\n", program.name, program.kernels.size(),
             cores.size(), run.outputs.size());
  fmt::print("kernels: {} compiled ({:.2f} s), {} from the cache; load {:.2f} s, run {:.1f} ms\n", run.compile.compiled,
             run.compile.compile_seconds, run.compile.cache_hits, run.compile.load_seconds, run.run_seconds * 1e3);
  fmt::print("time lower bound {:.2f} us ({})", run.report.bound.seconds * 1e6, run.report.bound.limited_by);
  if (run.report.timing) fmt::print("; predicted {:.2f} us on the chip", run.report.timing->seconds(run.report.timing->end) * 1e6);
  fmt::print("\n");
}

void run_emulate(const EmulateArgs& args) {
  if (!args.descriptor.empty()) return run_descriptor_program(args);
  if (args.sweep) return run_sweep(args);
  if (args.program == "dit" || !args.variant.empty()) return run_dit_program(args);
  require(args.program == "linear", "--program: unknown program '{}' (known: linear, dit)", args.program);
  require(!args.timing && args.trace.empty(), "--timing / --trace: the timing model runs the megakernel (--program dit)");
  run_linear_program(args);
}

}  // namespace

void add_emulate(CLI::App& app) {
  auto args = std::make_shared<EmulateArgs>();
  CLI::App* cmd = app.add_subcommand("emulate", "run a program on the emulated 110-core Blackhole chip");
  cmd->add_option("--program", args->program, "program to run: linear, or dit (the megakernel)")->capture_default_str();
  cmd->add_option("--dtype", args->dtype, "weight format: bf16 or bfp8_b")->capture_default_str();
  cmd->add_option("--report", args->report, "write the report as JSON to this file");
  cmd->add_option("--seed", args->seed, "seed of the random inputs")->capture_default_str();
  cmd->add_option("--launches", args->launches, "launches in a row (linear, steps4)")->capture_default_str();
  cmd->add_option("--cb-w-pages", args->cb_w_pages, "linear: pages of the weight ring (0: the plan's)")
      ->capture_default_str();
  cmd->add_option("--variant", args->variant, "megakernel variant: block, step or steps4 (implies --program dit)");
  add_model_options(*cmd, args->model);
  cmd->add_option("--embodiment", args->embodiment, "embodiment id or tag (default: new_embodiment)");
  cmd->add_option("--n-blocks", args->n_blocks, "run only the first N DiT blocks (0: all)")->capture_default_str();
  cmd->add_option("--protocol", args->protocol, "megakernel protocol: seed (two hubs, K4b) or onehub")
      ->capture_default_str();
  cmd->add_flag("--timing", args->timing, "predict the time on the chip (timing model, docs/timing.md)");
  cmd->add_flag("--sweep", args->sweep,
                "predict one block of each kind for each protocol, stream dtype and weight-ring depth");
  cmd->add_option("--trace", args->trace, "write the timed launch as a Chrome / Perfetto trace (implies --timing)");
  cmd->add_option("--descriptor", args->descriptor,
                  "run a tt-metal program: a ProgramDescriptor JSON whose kernels are tt-metal dialect sources "
                  "(docs/tt-dialect.md); they run as native code, so run only descriptors you trust");
  cmd->add_option("--data", args->data, "--descriptor: folder of its input and output .npy files (default: its own)");
  cmd->add_option("--kernel-cache", args->kernel_cache,
                  "folder of compiled kernels (default: $DITMK_KERNEL_CACHE or ~/.cache/ditmk/kernels)");
  cmd->add_option("--kernel-root", args->kernel_root,
                  "--descriptor: a tt-metal tree (default: $TT_METAL_HOME): kernel sources not found beside the "
                  "descriptor or in the working folder are looked for under it, and kernels include its headers "
                  "above the hardware layer (docs/tt-dialect.md, \"Kernel roots\")");
  cmd->add_option("--watchdog", args->watchdog,
                  "--descriptor: seconds a kernel may run without a device API call or a wait before its launch "
                  "ends with a no_progress fault (0: no limit)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--strict", args->strict,
                "--descriptor: fault where silicon goes on and a default run warns (a pack_tile without "
                "cb_reserve_back, ...)");
  cmd->callback([args] { run_emulate(*args); });
}

}  // namespace ditmk::cli
