#pragma once
// Typed views of an action-head checkpoint: every tensor the math needs, found by its release name,
// shape-checked against the detected ModelConfig. The views point into the mapped files.
#include <memory>
#include <string>
#include <vector>

#include "ditmk/core/tensor.hpp"
#include "ditmk/io/checkpoint.hpp"
#include "ditmk/model/config.hpp"

namespace ditmk::model {

// nn.Linear: weight [out, in], bias [out].
struct Linear {
  TensorView weight, bias;
  int in() const { return int(weight.shape[1]); }
  int out() const { return int(weight.shape[0]); }
};

// GR00T's CategorySpecificLinear: W [E, in, out], b [E, out]; y = x @ W[e] + b[e].
struct CategoryLinear {
  TensorView W, b;
  // The embodiment's slice: weight [in, out] (note: not nn.Linear's order), bias [out].
  Linear slice(int embodiment) const;
};

struct DitBlock {
  KeySet keys = KeySet::self_attn;
  Linear adaln;  // norm1.linear: SiLU(temb) -> [scale, shift]
  Linear q, k, v, out;
  Linear ff1, ff2;
};

struct VlLayer {
  TensorView norm1_weight, norm1_bias, norm3_weight, norm3_bias;
  Linear q, k, v, out, ff1, ff2;
};

// The embodiment-specific encoders and decoder, sliced for one embodiment.
struct EmbodimentWeights {
  int id = 0;
  Linear state1, state2;              // S -> hidden -> D
  Linear enc1, enc2, enc3;            // A -> D, 2D -> D, D -> D
  Linear dec1, dec2;                  // out -> hidden -> A
};

struct Weights {
  ModelConfig config;
  std::shared_ptr<const io::Checkpoint> checkpoint;
  Linear temb1, temb2;
  std::vector<DitBlock> blocks;
  Linear proj_out_1, proj_out_2;
  CategoryLinear state1, state2, enc1, enc2, enc3, dec1, dec2;
  // position_embedding is empty without add_pos_embed, vlln_* without use_vlln, future_tokens before N1.5
  TensorView position_embedding, vlln_weight, vlln_bias, future_tokens;
  std::vector<VlLayer> vl_layers;

  EmbodimentWeights embodiment(int id) const;
  // Row `row` of the position code added to the action tokens: 0 without add_pos_embed.
  double position(int row, int col) const {
    return config.add_pos_embed ? position_embedding.at(std::size_t(row) * config.dims.width + col) : 0.0;
  }
  // "24", or a tag of embodiment_id.json / the version's known tags; Error for anything unknown.
  int resolve_embodiment(const std::string& id_or_tag) const;
};

// Detects the version and dimensions from config.json and the tensors, checks every tensor's
// presence, dtype and shape, and returns the views. Errors name the file/tensor/field.
Weights load_weights(const std::string& path);
Weights load_weights(std::shared_ptr<const io::Checkpoint> checkpoint);

// Release tensor names (prefix action_head.).
std::string dit_name(const std::string& rest);         // action_head.model.<rest>
std::string head_name(const std::string& rest);        // action_head.<rest>

}  // namespace ditmk::model
