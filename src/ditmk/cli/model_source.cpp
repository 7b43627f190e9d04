#include "ditmk/cli/model_source.hpp"

#include "ditmk/model/synthetic.hpp"

namespace ditmk::cli {

void add_model_options(CLI::App& cmd, ModelSource& source) {
  cmd.add_option("--checkpoint", source.checkpoint, "release directory or .safetensors (default: built-in model of --version)");
  cmd.add_option("--version", source.version, "version of the built-in model")->check(CLI::IsMember({"n15", "n16", "n17"}));
  cmd.add_flag("--mask-padding", source.mask_padding,
               "never attend tokens whose attention_mask is 0 (a deviation from the releases, which attend them "
               "in N1.5's cross blocks, the plain DiT and the VL self-attention)");
}

model::Weights load_model(const ModelSource& source) {
  model::Weights weights = source.checkpoint.empty()
                               ? model::load_weights(model::ensure_default_model(model::parse_version(source.version)))
                               : model::load_weights(source.checkpoint);
  weights.config.mask_padding = source.mask_padding;
  return weights;
}

std::string default_embodiment(const model::ModelConfig& config) {
  return config.embodiment_ids.count("new_embodiment") ? "new_embodiment" : "0";
}

}  // namespace ditmk::cli
