// `ditmk export --tt-metal DIR`: the megakernel as a tt-metal program for one call of a model (the
// built-in one of --version, or --checkpoint): kernel sources, ProgramDescriptor, every input
// tensor's bytes and a README (tt/host/tt_metal_export.hpp). The folder appears whole or not at all.
#include <fmt/format.h>

#include <memory>

#include "ditmk/cli/commands.hpp"
#include "ditmk/cli/model_source.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/parallel.hpp"
#include "ditmk/model/denoise.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/tt/host/tt_metal_export.hpp"

namespace ditmk::cli {

namespace {

struct ExportArgs {
  std::string tt_metal;
  ModelSource model;
  std::string variant = "steps4";
  std::string dtype = "bfp8_b";
  std::string protocol = "seed";
  std::string embodiment;
  int n_blocks = 0;
  uint64_t seed = 1;
};

void run_export(const ExportArgs& args) {
  using namespace ditmk::tt;
  require(parse_variant(args.variant) == Variant::steps4,
          "--variant {}: the export is the steps4 program, the whole denoise in one launch (block and step need the "
          "host between launches)", args.variant);
  host::ExportRequest request;
  request.dtype = parse_tile_format(args.dtype);
  request.protocol = parse_protocol(args.protocol);
  request.threads = hardware_threads();
  const model::Weights weights = first_blocks(load_model(args.model), args.n_blocks);
  const int embodiment =
      weights.resolve_embodiment(args.embodiment.empty() ? model::default_embodiment(weights.config) : args.embodiment);
  const model::Observation obs = model::synthetic_observation(weights.config, args.seed);
  const Matrix<double> noise =
      model::noise_matrix(model::synthetic_noise(weights.config, args.seed).view(), weights.config, "noise");
  const host::ExportSummary s = host::export_tt_metal(weights, embodiment, obs, noise, request, args.tt_metal);
  fmt::print("wrote {} ({} files, {:.1f} MB): kernels/, program.json, inputs/, README.md\n", args.tt_metal,
             s.files.size(), double(s.bytes) / 1e6);
  fmt::print("run it on the emulated chip: ditmk emulate --descriptor {}/program.json\n", args.tt_metal);
}

}  // namespace

void add_export(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* cmd = app.add_subcommand("export", "write the megakernel as a tt-metal program: kernels, descriptor, inputs");
  cmd->add_option("--tt-metal", args->tt_metal, "the folder to write (must not exist, or be empty)")->required();
  add_model_options(*cmd, args->model);
  cmd->add_option("--variant", args->variant, "the program: steps4 (the whole denoise in one launch)")->capture_default_str();
  cmd->add_option("--dtype", args->dtype, "stream weight format: bfp8_b or bf16")->capture_default_str();
  cmd->add_option("--protocol", args->protocol, "megakernel protocol: seed (two hubs, K4b) or onehub")->capture_default_str();
  cmd->add_option("--embodiment", args->embodiment, "embodiment id or tag (default: new_embodiment)");
  cmd->add_option("--n-blocks", args->n_blocks, "only the first N DiT blocks (0: all)")->capture_default_str();
  cmd->add_option("--seed", args->seed, "seed of the call's synthetic observation and noise")->capture_default_str();
  cmd->callback([args] { run_export(*args); });
}

}  // namespace ditmk::cli
