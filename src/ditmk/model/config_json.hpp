#pragma once
// config.json <-> ModelConfig, in the form each release writes it:
//   N1.5       nested: {"model_type": "gr00t_n1_5", "action_head_cfg": {..., "diffusion_model_cfg": {...},
//              "vl_self_attention_cfg": {...}}}
//   N1.6/N1.7  flat: the fields of Gr00tN1d6Config / Gr00tN1d7Config at the top level, the DiT's
//              settings in "diffusion_model_cfg" (without cross_attention_dim, which the head passes).
// Earlier ditmk versions wrote N1.6/N1.7 in N1.5's nested form; that form is still read, with the
// meaning those versions gave it.
//
// Reading applies the released classes' defaults to absent fields, so a field that is absent means
// what it means to the released code. Settings ditmk cannot compute are refused with one line naming
// the field, its value and what ditmk supports. docs/model.md lists every field.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ditmk/model/config.hpp"

namespace ditmk::model {

nlohmann::json config_to_json(const ModelConfig& config);

// The version named by config.json's model_type, if it names one.
std::optional<Version> version_from_json(const nlohmann::json& config);

// A size config.json declares, which the tensors also reveal: the loader checks the two agree.
struct DeclaredSize {
  std::string field;  // dotted path in config.json, e.g. "action_head_cfg.max_state_dim"
  int value = 0;
};

struct DeclaredConfig {
  ModelConfig settings;  // every setting of ModelConfig config.json decides (heads, horizon, steps, ...)
  std::optional<DeclaredSize> n_blocks, width, ctx_dim, vl_width, out_dim, hidden, action_dim, state_dim, n_future, pos_rows,
      n_embodiments, vl_layers;
};

// Reads config.json (`file` names it in errors) as a release of `version` writes it.
DeclaredConfig read_config_json(const nlohmann::json& config, Version version, const std::string& file);

// The image token id, where config.json carries one (image_token_index, at any depth); -1 otherwise.
int image_token_index(const nlohmann::json& config);

}  // namespace ditmk::model
