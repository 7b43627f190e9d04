#pragma once
// One observation: the VLM backbone's features, which of them are real / image tokens, and the
// robot state. Built from named arrays (an .npz, a wire message, Python arrays) and validated against
// the model before any math runs.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ditmk/core/tensor.hpp"
#include "ditmk/model/config.hpp"

namespace ditmk::model {

struct Observation {
  TensorView features;                           // [S, ctx]: F32, F16 or BF16, row-major
  std::shared_ptr<const Tensor> owned_features;  // holds `features` when the observation owns them
  std::vector<uint8_t> attention_mask;           // [S] 1 = real token
  std::vector<uint8_t> image_mask;               // [S] 1 = image token
  std::vector<float> state;                      // [state_history x state_dim], frames in time order

  int tokens() const { return int(features.shape[0]); }
  void own_features(Tensor features);
  // The keys a block of this key set may attend to (1 = admissible): `all` is every token as the
  // releases attend them, or only attention_mask's with the mask_padding opt-in; `text` / `image` are
  // the real (attention_mask) non-image / image tokens.
  std::vector<uint8_t> key_mask(KeySet keys, bool mask_padding) const;
};

// The arrays of one observation by their .npz names, in memory the caller keeps alive while the
// observation is used (GR00T's backbone names backbone_features / backbone_attention_mask are
// accepted for the first two):
//   features        [S, ctx] or [1, S, ctx], float32 / float16 / bfloat16 (viewed, not copied)
//   attention_mask  [S] or [1, S], bool or integer 0/1 (default: all real)
//   image_mask      [S] or [1, S], bool or integer 0/1 (default: no image token)
//   input_ids       [S] or [1, S] integer, with an image token id: the image mask where none is given
//   state           [state_dim] or [1, state_dim], or [L, state_dim] / [1, L, state_dim] with L the
//                   release's state history; float (default: zeros)
using ObservationArrays = std::map<std::string, TensorView>;

// Checks every array (shape, dtype, finiteness, 0/1 masks, an admissible key for every key set the
// model uses) and builds the observation. Errors name `what:array` ("obs.npz:features"), or just
// the array when `what` is empty.
Observation make_observation(const ObservationArrays& arrays, const ModelConfig& config, const std::string& what,
                             int image_token_id = -1);

// An .npz holding the arrays above.
Observation load_observation(const std::string& path, const ModelConfig& config, int image_token_id = -1);

// Writes `obs` as such an .npz (features, attention_mask, image_mask, state as [L, S] frames when the
// model keeps a state history).
void write_observation(const Observation& obs, const ModelConfig& config, const std::string& path);

// The checks make_observation runs, for observations built in memory.
void validate_observation(const Observation& obs, const ModelConfig& config, const std::string& what);

}  // namespace ditmk::model
