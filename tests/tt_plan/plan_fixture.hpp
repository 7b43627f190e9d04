#pragma once
// Builds the released plans the tests check.
#include "ditmk/tt/plan/program_builder.hpp"

namespace ditmk::tt::testing {

inline model::ModelConfig config_of(model::Version version, int n_blocks = 0) {
  model::ModelConfig config = model::default_config(version);
  if (n_blocks > 0) {
    config.n_blocks = n_blocks;
    config.block_keys = model::block_schedule(config);
  }
  return config;
}

inline ArenaLayout layout_of(model::Version version, Variant variant, TileFormat dtype, int n_blocks = 0) {
  model::ModelConfig config = config_of(version, n_blocks);
  ArenaOptions options;
  options.variant = variant;
  options.dtype_stream = dtype;
  return plan_arena(config, default_layout(config), options);
}

inline ProgramSpec spec_of(model::Version version, Variant variant, TileFormat dtype, Kernel kernel) {
  ProgramOptions options;
  options.kernel = kernel;
  return build_program_spec(blackhole_core_map(), layout_of(version, variant, dtype), options);
}

}  // namespace ditmk::tt::testing
