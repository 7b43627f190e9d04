#pragma once
// How a subcommand finds its model: an explicit --checkpoint, or the built-in default of --version
// (generated deterministically into the cache on first use).
#include <CLI/CLI.hpp>
#include <string>

#include "ditmk/model/weights.hpp"

namespace ditmk::cli {

struct ModelSource {
  std::string checkpoint;     // empty: the built-in default
  std::string version = "n15";
  bool mask_padding = false;  // the opt-in deviation of docs/model.md
  bool no_weight_cache = false;  // pack the weights afresh and keep nothing (OpenOptions::weight_cache)
};

// --checkpoint, --version and --mask-padding, the same on every command that runs the model.
void add_model_options(CLI::App& cmd, ModelSource& source);
model::Weights load_model(const ModelSource& source);
// --no-weight-cache, on the commands that open a resident head (run, serve).
void add_weight_cache_flag(CLI::App& cmd, ModelSource& source);
// The model with only its first n blocks (0: all): what the megakernel's programs of --n-blocks run.
model::Weights first_blocks(model::Weights weights, int n_blocks);

}  // namespace ditmk::cli
