#include "ditmk/model/config_json.hpp"

#include <cctype>

#include "ditmk/core/error.hpp"

namespace ditmk::model {

using nlohmann::json;

namespace {

const json* find_key(const json& node, const std::string& key) {
  if (!node.is_object()) return nullptr;
  if (const auto it = node.find(key); it != node.end()) return &*it;
  for (const auto& [k, child] : node.items())
    if (const json* found = find_key(child, key)) return found;
  return nullptr;
}

const json& action_head_section(const json& config) {
  const json* head = find_key(config, "action_head_cfg");
  return head != nullptr && head->is_object() ? *head : config;
}

std::string_view model_type_name(Version v) {
  switch (v) {
    case Version::n15: return "gr00t_n1_5";
    case Version::n16: return "Gr00tN1d6";
    case Version::n17: return "Gr00tN1d7";
  }
  return "";
}

}  // namespace

std::optional<Version> version_from_json(const json& config) {
  const json* type = find_key(config, "model_type");
  if (type == nullptr || !type->is_string()) return std::nullopt;
  std::string norm;
  for (char ch : type->get<std::string>())
    if (std::isalnum(static_cast<unsigned char>(ch))) norm += char(std::tolower(static_cast<unsigned char>(ch)));
  for (auto [tag, version] : {std::pair{"n15", Version::n15}, {"n1d5", Version::n15}, {"n16", Version::n16},
                              {"n1d6", Version::n16}, {"n17", Version::n17}, {"n1d7", Version::n17}})
    if (norm.find(tag) != std::string::npos) return version;
  return std::nullopt;
}

std::optional<int> int_setting(const json& config, const char* section, const char* key) {
  const json& head = action_head_section(config);
  const json* found = nullptr;
  if (section != nullptr)
    if (const json* sec = find_key(head, section)) found = find_key(*sec, key);
  if (found == nullptr) found = find_key(head, key);
  if (found == nullptr || found->is_null()) return std::nullopt;
  if (!found->is_number_integer()) fail("config.json: '{}' is not an integer", key);
  return found->get<int>();
}

json config_to_json(const ModelConfig& c) {
  const Dims& d = c.dims;
  json dit = {{"num_layers", c.n_blocks},          {"num_attention_heads", d.n_heads},
              {"attention_head_dim", d.head_dim},  {"output_dim", d.out_dim},
              {"cross_attention_dim", d.ctx_dim},  {"norm_type", "ada_norm"},
              {"interleave_self_attention", true}};
  json head = {{"action_dim", c.action_dim},
               {"max_action_dim", c.action_dim},
               {"action_horizon", c.horizon},
               {"max_state_dim", c.state_dim},
               {"hidden_size", d.hidden},
               {"input_embedding_dim", d.width},
               {"backbone_embedding_dim", d.ctx_dim},
               {"max_num_embodiments", c.n_embodiments},
               {"num_inference_timesteps", c.n_steps},
               {"num_timestep_buckets", c.timestep_buckets},
               {"num_target_vision_tokens", c.n_future},
               {"use_vlln", true},
               {"diffusion_model_cfg", dit}};
  if (c.vl_layers > 0)
    head["vl_self_attention_cfg"] = {
        {"num_layers", c.vl_layers}, {"num_attention_heads", d.vl_heads}, {"attention_head_dim", d.vl_head_dim}};
  return {{"model_type", model_type_name(c.version)}, {"action_head_cfg", head}};
}

}  // namespace ditmk::model
