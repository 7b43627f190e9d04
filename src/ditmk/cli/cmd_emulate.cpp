// `ditmk emulate`: runs a program on the emulated Blackhole chip and reports what it found.
#include <fmt/format.h>

#include <fstream>
#include <string>

#include "ditmk/cli/commands.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/emu/linear_program.hpp"

namespace ditmk::cli {

namespace {

struct EmulateArgs {
  std::string program = "linear";
  std::string dtype = "bf16";
  std::string report;
  uint64_t seed = 1;
  uint32_t launches = 2;
  uint32_t cb_w_pages = 0;
};

void run_emulate(const EmulateArgs& args) {
  using namespace ditmk::tt::emu;
  require(args.program == "linear", "--program: unknown program '{}' (known: linear)", args.program);
  LinearOptions options;
  options.weight_format = tt::parse_tile_format(args.dtype);
  require(options.weight_format != tt::TileFormat::fp32, "--dtype: weights stream as bf16 or bfp8_b, not fp32");
  require(args.launches >= 1, "--launches: must be at least 1");
  options.seed = args.seed;
  options.launches = args.launches;
  options.cb_w_pages = args.cb_w_pages;
  const LinearRun run = run_linear(options);
  const nlohmann::json report = to_json(run, options);
  if (!args.report.empty()) {
    std::ofstream out(args.report);
    require(bool(out), "--report: cannot write '{}'", args.report);
    out << report.dump(2) << '\n';
    require(bool(out), "--report: writing '{}' failed", args.report);
  }
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

}  // namespace

void add_emulate(CLI::App& app) {
  auto args = std::make_shared<EmulateArgs>();
  CLI::App* cmd = app.add_subcommand("emulate", "run a program on the emulated 110-core Blackhole chip");
  cmd->add_option("--program", args->program, "program to run (linear)")->capture_default_str();
  cmd->add_option("--dtype", args->dtype, "weight format: bf16 or bfp8_b")->capture_default_str();
  cmd->add_option("--report", args->report, "write the report as JSON to this file");
  cmd->add_option("--seed", args->seed, "seed of the random activation and weights")->capture_default_str();
  cmd->add_option("--launches", args->launches, "launches in a row")->capture_default_str();
  cmd->add_option("--cb-w-pages", args->cb_w_pages, "pages of the weight ring (0: the plan's)")->capture_default_str();
  cmd->callback([args] { run_emulate(*args); });
}

}  // namespace ditmk::cli
