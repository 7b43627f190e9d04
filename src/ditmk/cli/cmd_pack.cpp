// `ditmk pack`: writes the DRAM image of the steps4 K4 megakernel for a checkpoint (both arenas, the
// offsets table, the host row tables and a manifest) into a new directory that appears only when
// complete. docs/plan.md, "Packing", describes the files.
#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "ditmk/cli/commands.hpp"
#include "ditmk/cli/model_source.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/progress.hpp"
#include "ditmk/tt/pack/packer.hpp"

namespace ditmk::cli {

namespace {

struct PackArgs {
  std::string checkpoint, dtype = "bfp8_b", out, embodiment, version;
};

void run_pack(const PackArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  tt::PackOptions options;
  // Options are checked before the checkpoint is opened, so a typo fails at once.
  options.dtype_stream = tt::parse_tile_format(args.dtype);
  require(options.dtype_stream != tt::TileFormat::fp32, "--dtype fp32: the stream arena is bf16 or bfp8_b");
  if (!args.version.empty()) options.version = model::parse_version(args.version);
  const model::Weights weights = model::load_weights(args.checkpoint);
  options.embodiment = args.embodiment.empty() ? model::default_embodiment(weights.config) : args.embodiment;
  const tt::PackSummary s = tt::pack_checkpoint(weights, args.out, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const tt::ArenaLayout& a = s.layout;
  if (is_terminal(stdout))
    fmt::print("packed {} ({} blocks, embodiment {}) for steps4 k4, stream {}: {} ops, stream arena {} B per bank, "
               "small arena {} B per bank\n",
               model::version_name(a.version), a.n_blocks, s.embodiment, tt::tile_format_name(a.dtype_stream),
               a.ops.size(), a.arena_bank_bytes[0], a.arena_bank_bytes[1]);
  fmt::print("wrote {} ({:.1f} MB, {} manifest ranges) in {:.1f} s\n", args.out, s.bytes_written / 1e6, s.n_ranges,
             seconds);
}

}  // namespace

void add_pack(CLI::App& app) {
  auto args = std::make_shared<PackArgs>();
  CLI::App* cmd = app.add_subcommand("pack", "pack a checkpoint's weights for the Blackhole megakernel (arenas, tables)");
  cmd->add_option("--checkpoint", args->checkpoint, "release directory or .safetensors file")->required();
  cmd->add_option("--dtype", args->dtype, "stream arena dtype: bf16 or bfp8_b")->capture_default_str();
  cmd->add_option("--out", args->out, "pack directory to create")->required();
  cmd->add_option("--embodiment", args->embodiment, "embodiment id or tag (default: new_embodiment)");
  cmd->add_option("--version", args->version, "expected version of the checkpoint (n15, n16, n17)");
  cmd->callback([args] { run_pack(*args); });
}

}  // namespace ditmk::cli
