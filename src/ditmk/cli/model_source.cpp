#include "ditmk/cli/model_source.hpp"

#include "ditmk/api/ditmk.hpp"

namespace ditmk::cli {

void add_model_options(CLI::App& cmd, ModelSource& source) {
  cmd.add_option("--checkpoint", source.checkpoint, "release directory or .safetensors (default: built-in model of --version)");
  cmd.add_option("--version", source.version, "version of the built-in model")->check(CLI::IsMember({"n15", "n16", "n17"}));
  cmd.add_flag("--mask-padding", source.mask_padding,
               "never attend tokens whose attention_mask is 0 (a deviation from the releases, which attend them "
               "in N1.5's cross blocks, the plain DiT and the VL self-attention)");
}

void add_weight_cache_flag(CLI::App& cmd, ModelSource& source) {
  cmd.add_flag("--no-weight-cache", source.no_weight_cache,
               "pack the weights afresh instead of mapping them from the weight cache, and write no cache file "
               "(also DITMK_WEIGHT_CACHE=off)");
}

model::Weights load_model(const ModelSource& source) {
  OpenOptions options;
  options.checkpoint = source.checkpoint, options.version = source.version, options.mask_padding = source.mask_padding;
  return open_weights(options);
}

model::Weights first_blocks(model::Weights weights, int n_blocks) {
  if (n_blocks == 0) return weights;
  require(n_blocks >= 1 && n_blocks <= weights.config.n_blocks, "--n-blocks {} outside 1..{}", n_blocks,
          weights.config.n_blocks);
  weights.config.n_blocks = n_blocks;
  weights.config.block_keys.resize(n_blocks);
  weights.blocks.resize(n_blocks);
  return weights;
}

}  // namespace ditmk::cli
