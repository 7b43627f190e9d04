#pragma once
// config.json <-> ModelConfig. GR00T releases keep the action-head settings under
// "action_head_cfg" (DiT settings under "diffusion_model_cfg", the VL stack under
// "vl_self_attention_cfg"); keys are looked up by name inside that object, wherever they nest.
#include <nlohmann/json.hpp>
#include <optional>

#include "ditmk/model/config.hpp"

namespace ditmk::model {

nlohmann::json config_to_json(const ModelConfig& config);

// The version named by config.json's model_type, if it names one.
std::optional<Version> version_from_json(const nlohmann::json& config);
// An integer setting, searched in `section` (e.g. "diffusion_model_cfg") first, then anywhere in the
// action-head config; nullopt when absent. Error (naming the key) when present but not an integer.
std::optional<int> int_setting(const nlohmann::json& config, const char* section, const char* key);

}  // namespace ditmk::model
