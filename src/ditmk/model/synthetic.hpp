#pragma once
// Deterministic synthetic releases and observations: the real key names, shapes and file layout
// (config.json, embodiment_id.json, sharded safetensors + index) with seeded random values scaled so
// that activations stay in the range a trained model shows (unit-variance layers, small biases).
#include <cstdint>
#include <string>

#include "ditmk/core/dtype.hpp"
#include "ditmk/model/config.hpp"
#include "ditmk/model/observation.hpp"

namespace ditmk::model {

struct SyntheticOptions {
  DType dtype = DType::BF16;
  uint64_t seed = 0;
  uint64_t shard_bytes = 1ull << 30;  // tensors are grouped into shards of about this size
  bool progress = true;
};

// Writes a release directory at `dir` (created; must not exist or be empty). The directory appears
// only when complete.
void write_synthetic_release(const ModelConfig& config, const std::string& dir, const SyntheticOptions& options);

// The small geometry the unit tests use: real structure, narrow widths.
ModelConfig tiny_config(Version version, int n_blocks = 4);

// A deterministic observation for `config`: feature rows, and for N1.6/N1.7 text, image and padding
// tokens marked in the masks (the numbers of each as in TARGET.md's layouts, scaled to `tokens`).
Observation synthetic_observation(const ModelConfig& config, uint64_t seed);

// Seeded standard-normal noise [H, A].
Tensor synthetic_noise(const ModelConfig& config, uint64_t seed);

// Where the built-in default model of a version lives, generated on first use:
// $DITMK_CACHE, else $XDG_CACHE_HOME/ditmk, else ~/.cache/ditmk.
std::string default_model_dir(Version version);
std::string ensure_default_model(Version version);

}  // namespace ditmk::model
