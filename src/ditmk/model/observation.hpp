#pragma once
// One observation: the VLM backbone's features, which of them are real / image tokens, and the
// robot state. Loaded from an .npz and validated against the model before any math runs.
#include <cstdint>
#include <string>
#include <vector>

#include "ditmk/core/tensor.hpp"
#include "ditmk/model/config.hpp"

namespace ditmk::model {

struct Observation {
  Tensor features;                      // [S, ctx] F32
  std::vector<uint8_t> attention_mask;  // [S] 1 = real token
  std::vector<uint8_t> image_mask;      // [S] 1 = image token
  std::vector<float> state;             // [state_dim]

  int tokens() const { return int(features.shape()[0]); }
  // The keys a cross block of this key set may attend to (1 = admissible).
  std::vector<uint8_t> key_mask(KeySet keys) const;
};

// Reads `features` [S, ctx] (f32/f16), optional `attention_mask` / `image_mask` [S] (bool or integer
// 0/1), `input_ids` [S] (with an image token id, giving the image mask), `state` [S] or [1, S].
// Checks shapes, dtypes, finiteness and that every key set the model uses has an admissible key.
Observation load_observation(const std::string& path, const ModelConfig& config, int image_token_id = -1);

// The checks load_observation runs, for observations built in memory.
void validate_observation(const Observation& obs, const ModelConfig& config, const std::string& what);

}  // namespace ditmk::model
