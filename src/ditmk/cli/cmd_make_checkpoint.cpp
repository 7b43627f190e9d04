#include <fmt/format.h>

#include "ditmk/api/ditmk.hpp"
#include "ditmk/cli/commands.hpp"

namespace ditmk::cli {

void add_make_checkpoint(CLI::App& app) {
  auto opt = std::make_shared<MakeCheckpointOptions>();
  auto* cmd = app.add_subcommand("make-checkpoint", "write a deterministic synthetic GR00T release directory");
  cmd->add_option("--version", opt->version, "n15, n16 or n17")->check(CLI::IsMember({"n15", "n16", "n17"}));
  cmd->add_option("--out", opt->out, "release directory to create")->required();
  cmd->add_option("--dtype", opt->dtype, "bf16 or fp32")->check(CLI::IsMember({"bf16", "fp32"}));
  cmd->add_option("--seed", opt->seed, "value seed");
  cmd->add_option("--n-blocks", opt->n_blocks, "DiT blocks (default: as released)")->check(CLI::Range(1, 64));
  cmd->add_option("--shard-mb", opt->shard_mb, "approximate shard size in MB")->check(CLI::Range(1, 1 << 20));
  cmd->add_flag("--tiny", opt->tiny, "narrow widths (64-wide DiT) for fast tests; same structure and names");
  cmd->callback([opt] {
    const model::ModelConfig config = make_checkpoint(*opt);
    fmt::print("wrote {} ({} blocks, {}) to {}\n", model::version_name(config.version), config.n_blocks, opt->dtype, opt->out);
  });
}

}  // namespace ditmk::cli
