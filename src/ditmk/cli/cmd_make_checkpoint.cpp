#include <fmt/format.h>

#include "ditmk/cli/commands.hpp"
#include "ditmk/model/synthetic.hpp"

namespace ditmk::cli {

void add_make_checkpoint(CLI::App& app) {
  struct Options {
    std::string version = "n15", out, dtype = "bf16";
    uint64_t seed = 0;
    int n_blocks = 0, shard_mb = 1024;
    bool tiny = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("make-checkpoint", "write a deterministic synthetic GR00T release directory");
  cmd->add_option("--version", opt->version, "n15, n16 or n17")->check(CLI::IsMember({"n15", "n16", "n17"}));
  cmd->add_option("--out", opt->out, "release directory to create")->required();
  cmd->add_option("--dtype", opt->dtype, "bf16 or fp32")->check(CLI::IsMember({"bf16", "fp32"}));
  cmd->add_option("--seed", opt->seed, "value seed");
  cmd->add_option("--n-blocks", opt->n_blocks, "DiT blocks (default: as released)")->check(CLI::Range(1, 64));
  cmd->add_option("--shard-mb", opt->shard_mb, "approximate shard size in MB")->check(CLI::Range(1, 1 << 20));
  cmd->add_flag("--tiny", opt->tiny, "narrow widths (64-wide DiT) for fast tests; same structure and names");
  cmd->callback([opt] {
    const model::Version version = model::parse_version(opt->version);
    model::ModelConfig config = opt->tiny ? model::tiny_config(version) : model::default_config(version);
    if (opt->n_blocks > 0) {
      config.n_blocks = opt->n_blocks;
      config.block_keys = model::block_schedule(config);
    }
    model::SyntheticOptions options;
    options.dtype = opt->dtype == "bf16" ? DType::BF16 : DType::F32;
    options.seed = opt->seed;
    options.shard_bytes = uint64_t(opt->shard_mb) << 20;
    model::write_synthetic_release(config, opt->out, options);
    fmt::print("wrote {} ({} blocks, {}) to {}\n", model::version_name(version), config.n_blocks, opt->dtype, opt->out);
  });
}

}  // namespace ditmk::cli
