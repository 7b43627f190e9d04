#include "ditmk/model/config_json.hpp"

#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"

namespace ditmk::model {

using nlohmann::json;

namespace {

std::string_view model_type_name(Version v) {
  switch (v) {
    case Version::n15: return "gr00t_n1_5";
    case Version::n16: return "Gr00tN1d6";
    case Version::n17: return "Gr00tN1d7";
  }
  return "";
}

std::string_view architecture_name(Version v) { return v == Version::n15 ? "GR00T_N1_5" : model_type_name(v); }

// One object of config.json and its dotted path. Absent (or null) fields give the caller's fallback:
// the default of the released class that reads the object.
class Section {
 public:
  Section(const json* node, std::string path, const std::string& file) : node_(node), path_(std::move(path)), file_(file) {}

  bool has(const char* key) const { return get(key) != nullptr; }  // present and not null
  bool present(const char* key) const { return node_ != nullptr && node_->is_object() && node_->contains(key); }
  std::string where(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
  Section child(const char* key) const { return {get(key), where(key), file_}; }

  bool flag(const char* key, bool fallback) const {
    const json* v = get(key);
    if (v == nullptr) return fallback;
    if (!v->is_boolean()) bad(key, *v, "true or false");
    return v->get<bool>();
  }
  int integer(const char* key, int fallback, int min_value = 1) const {
    const json* v = get(key);
    if (v == nullptr) return fallback;
    if (!v->is_number_integer() || v->get<int64_t>() < min_value || v->get<int64_t>() > (1 << 30))
      bad(key, *v, min_value == 0 ? "a non-negative integer" : "a positive integer");
    return v->get<int>();
  }
  double positive_number(const char* key, double fallback) const {
    const json* v = get(key);
    if (v == nullptr) return fallback;
    if (!v->is_number() || !(v->get<double>() > 0) || !std::isfinite(v->get<double>())) bad(key, *v, "a positive number");
    return v->get<double>();
  }
  // A string setting; nullopt when the field is null. `fallback` is used when it is absent.
  std::optional<std::string> text_or_null(const char* key, std::optional<std::string> fallback) const {
    if (node_ == nullptr || !node_->is_object() || !node_->contains(key)) return fallback;
    const json& v = node_->at(key);
    if (v.is_null()) return std::nullopt;
    if (!v.is_string()) bad(key, v, "a string or null");
    return v.get<std::string>();
  }
  // A size the tensors reveal too; absent with no fallback: nothing to check.
  std::optional<DeclaredSize> size(const char* key, std::optional<int> fallback) const {
    const json* v = get(key);
    if (v == nullptr) return fallback ? std::optional<DeclaredSize>({where(key), *fallback}) : std::nullopt;
    return DeclaredSize{where(key), integer(key, 0, 0)};
  }
  std::string dump(const char* key) const { return has(key) ? get(key)->dump() : "null"; }
  [[noreturn]] void refuse(const char* key, const std::string& value, const char* supported) const {
    fail("{}: config.json field '{}' = {}: {}", file_, where(key), value, supported);
  }

 private:
  const json* get(const char* key) const {
    if (node_ == nullptr || !node_->is_object()) return nullptr;
    const auto it = node_->find(key);
    return it == node_->end() || it->is_null() ? nullptr : &*it;
  }
  [[noreturn]] void bad(const char* key, const json& value, const char* expected) const {
    fail("{}: config.json field '{}' = {} is not {}", file_, where(key), value.dump(), expected);
  }
  const json* node_;
  std::string path_;
  const std::string& file_;
};

// The released DiT class's constructor defaults, used for keys a given diffusion_model_cfg omits.
struct DitDefaults {
  std::optional<std::string> positional_embeddings;
  int num_layers, heads, head_dim, output_dim;
  bool interleave;
};
constexpr int kDitCtorLayers = 12, kDitCtorHeads = 8, kDitCtorHeadDim = 64, kDitCtorOutput = 26;

std::string quoted(const std::optional<std::string>& text) { return text ? '"' + *text + '"' : "null"; }

// Settings of the transformer blocks both stacks share (diffusers' BasicTransformerBlock) that the
// released classes accept but ditmk does not compute: refused by name.
void refuse_block_settings(const Section& stack, const std::optional<std::string>& positional_default,
                           const char* stack_name) {
  if (const auto pos = stack.text_or_null("positional_embeddings", positional_default))
    stack.refuse("positional_embeddings", quoted(pos),
                 fmt::format("the released {} would add its own position code to every block's input; ditmk supports "
                             "null, what every GR00T release sets (write \"positional_embeddings\": null)",
                             stack_name).c_str());
  if (const auto act = stack.text_or_null("activation_fn", "gelu-approximate"); act != "gelu-approximate")
    stack.refuse("activation_fn", quoted(act), "ditmk supports \"gelu-approximate\" (GELU, tanh form)");
  if (!stack.flag("attention_bias", true)) stack.refuse("attention_bias", "false", "ditmk supports true (every release)");
}

// The DiT's settings.
void read_dit(const Section& dit, const DitDefaults& defaults, DeclaredConfig& out) {
  ModelConfig& c = out.settings;
  refuse_block_settings(dit, defaults.positional_embeddings, "DiT");
  if (const auto norm = dit.text_or_null("norm_type", "ada_norm"); norm != "ada_norm")
    dit.refuse("norm_type", quoted(norm), "ditmk supports \"ada_norm\" (every GR00T release)");
  if (dit.flag("norm_elementwise_affine", false))
    dit.refuse("norm_elementwise_affine", "true", "ditmk supports false (LayerNorms without affine, every release)");
  c.dims.n_heads = dit.integer("num_attention_heads", defaults.heads);
  c.dims.head_dim = dit.integer("attention_head_dim", defaults.head_dim);
  c.interleave_self_attention = dit.flag("interleave_self_attention", defaults.interleave);
  c.ff_norm_eps = dit.positive_number("norm_eps", 1e-5);
  out.n_blocks = dit.size("num_layers", defaults.num_layers);
  out.out_dim = dit.size("output_dim", defaults.output_dim);
}

// The VL self-attention stack (SelfAttentionTransformer) of N1.5 and N1.7.
void read_vl_stack(const Section& vl, bool legacy, DeclaredConfig& out) {
  ModelConfig& c = out.settings;
  refuse_block_settings(vl, legacy ? std::nullopt : std::optional<std::string>("sinusoidal"), "VL self-attention");
  if (!vl.flag("norm_elementwise_affine", true))
    vl.refuse("norm_elementwise_affine", "false", "ditmk supports true (LayerNorms with affine, every release)");
  c.dims.vl_heads = vl.integer("num_attention_heads", kDitCtorHeads);
  c.dims.vl_head_dim = vl.integer("attention_head_dim", kDitCtorHeadDim);
  c.vl_norm_eps = vl.positive_number("norm_eps", 1e-5);
  out.vl_layers = vl.size("num_layers", kDitCtorLayers);
  c.vl_layers = out.vl_layers->value;
}

void read_n15(const json& config, const std::string& file, DeclaredConfig& out) {
  ModelConfig& c = out.settings;
  if (!config.contains("action_head_cfg") || !config["action_head_cfg"].is_object())
    fail("{}: config.json has no 'action_head_cfg' object, where N1.5 keeps its action-head settings", file);
  const Section head(&config["action_head_cfg"], "action_head_cfg", file);
  if (!head.has("diffusion_model_cfg"))
    fail("{}: config.json field 'action_head_cfg.diffusion_model_cfg' is missing (the released head needs it)", file);
  read_dit(head.child("diffusion_model_cfg"),
           {"sinusoidal", kDitCtorLayers, kDitCtorHeads, kDitCtorHeadDim, kDitCtorOutput, false}, out);
  c.add_pos_embed = head.flag("add_pos_embed", true);
  c.use_vlln = head.flag("use_vlln", true);
  // the released class has no default for these two (None): the head cannot run without them
  for (const char* key : {"action_horizon", "num_inference_timesteps"})
    if (!head.has(key)) fail("{}: config.json field '{}' is missing (the released head needs it)", file, head.where(key));
  c.horizon = head.integer("action_horizon", 0);
  c.n_steps = head.integer("num_inference_timesteps", 0);
  c.timestep_buckets = head.integer("num_timestep_buckets", 1000);
  out.width = head.size("input_embedding_dim", 1536);
  out.hidden = head.size("hidden_size", 1024);
  out.action_dim = head.size("action_dim", std::nullopt);
  out.state_dim = head.size("max_state_dim", std::nullopt);
  out.n_future = head.size("num_target_vision_tokens", 32);
  out.pos_rows = c.add_pos_embed ? head.size("max_seq_len", 1024) : std::nullopt;
  out.n_embodiments = head.size("max_num_embodiments", 32);
  // the cross blocks take cross_attention_dim-wide context (absent: the attention width itself)
  const Section dit = head.child("diffusion_model_cfg");
  out.ctx_dim = dit.size("cross_attention_dim", c.dims.n_heads * c.dims.head_dim);
  // use_vlln also gates the VL stack in N1.5: both are LayerNorm / self-attention or both identity
  if (c.use_vlln) {
    out.vl_width = head.size("backbone_embedding_dim", 1536);
    if (!head.has("vl_self_attention_cfg"))
      fail("{}: config.json field 'action_head_cfg.vl_self_attention_cfg' is missing (N1.5 with use_vlln needs it)", file);
    read_vl_stack(head.child("vl_self_attention_cfg"), false, out);
  } else {
    c.vl_layers = 0;  // the loader refuses a checkpoint that has a VL stack anyway
  }
}

// N1.6 and N1.7: Gr00tN1d6Config / Gr00tN1d7Config, flat; or the nested form earlier ditmk wrote.
void read_n16_n17(const json& config, Version version, const std::string& file, DeclaredConfig& out) {
  ModelConfig& c = out.settings;
  const bool legacy = config.contains("action_head_cfg");
  const Section head = legacy ? Section(&config["action_head_cfg"], "action_head_cfg", file) : Section(&config, "", file);
  const bool n17 = version == Version::n17;
  if (head.has("diffusion_model_cfg")) {
    const Section dit = head.child("diffusion_model_cfg");
    if (!legacy && dit.present("cross_attention_dim"))
      dit.refuse("cross_attention_dim", dit.dump("cross_attention_dim"), "the released head passes backbone_embedding_dim as the DiT's context "
                                                 "width and fails when the config repeats it; remove the field");
    if (legacy) {
      read_dit(dit, {std::nullopt, 32, 32, 48, 1024, true}, out);
    } else {
      read_dit(dit, {"sinusoidal", kDitCtorLayers, kDitCtorHeads, kDitCtorHeadDim, kDitCtorOutput, false}, out);
    }
  } else {  // the class default dictionary
    read_dit(Section(nullptr, "diffusion_model_cfg", file), {std::nullopt, n17 ? 16 : 32, 32, 48, 1024, true}, out);
  }
  c.add_pos_embed = head.flag("add_pos_embed", true);
  c.use_vlln = head.flag("use_vlln", true);
  c.alternate_vl_dit = head.flag("use_alternate_vl_dit", true);
  c.text_every_n_blocks = head.integer("attend_text_every_n_blocks", 2);
  if (c.alternate_vl_dit && !c.interleave_self_attention)
    fail("{}: config.json: use_alternate_vl_dit needs diffusion_model_cfg.interleave_self_attention = true (the "
         "released AlternateVLDiT requires it)", file);
  c.horizon = head.integer("action_horizon", n17 ? 40 : 16);
  c.n_steps = head.integer("num_inference_timesteps", 4);
  c.timestep_buckets = head.integer("num_timestep_buckets", 1000);
  c.state_history = n17 ? head.integer("state_history_length", 1) : 1;
  if (n17 && head.flag("strict_action_padding_mask", false))
    head.refuse("strict_action_padding_mask", "true",
                "ditmk supports false, the released default (true needs an action_mask input ditmk does not take)");
  // sizes: the released class defaults, except in the legacy form, whose absent sizes were read from
  // the tensors alone
  auto size = [&](const char* key, int fallback) { return head.size(key, legacy ? std::nullopt : std::optional(fallback)); };
  out.width = size("input_embedding_dim", 1536);
  out.hidden = size("hidden_size", 1024);
  out.ctx_dim = size("backbone_embedding_dim", 2048);
  if (c.use_vlln) out.vl_width = out.ctx_dim;
  out.action_dim = size("max_action_dim", n17 ? 132 : 29);
  out.state_dim = size("max_state_dim", n17 ? 132 : 29);
  if (c.add_pos_embed) out.pos_rows = size("max_seq_len", 1024);
  out.n_embodiments = size("max_num_embodiments", 32);
  out.n_future = DeclaredSize{"model_type", 0};
  // N1.7 builds the stack when vl_self_attention_cfg has num_layers > 0; N1.6 has none
  const Section vl = head.child("vl_self_attention_cfg");
  if (n17 && vl.integer("num_layers", 0, 0) > 0) {
    read_vl_stack(vl, legacy, out);
  } else {
    out.vl_layers = DeclaredSize{n17 ? vl.where("num_layers") : "model_type", 0};
    c.vl_layers = 0;
  }
}

json dit_json(const ModelConfig& c, bool with_context) {
  const Dims& d = c.dims;
  json dit = {{"attention_head_dim", d.head_dim},
              {"dropout", 0.2},
              {"final_dropout", true},
              {"interleave_self_attention", c.interleave_self_attention},
              {"norm_type", "ada_norm"},
              {"num_attention_heads", d.n_heads},
              {"num_layers", c.n_blocks},
              {"output_dim", d.out_dim},
              {"positional_embeddings", nullptr}};
  if (with_context) dit["cross_attention_dim"] = d.ctx_dim;
  if (c.ff_norm_eps != 1e-5) dit["norm_eps"] = c.ff_norm_eps;
  return dit;
}

json vl_stack_json(const ModelConfig& c) {
  json vl = {{"attention_head_dim", c.dims.vl_head_dim},
             {"dropout", 0.2},
             {"final_dropout", true},
             {"num_attention_heads", c.dims.vl_heads},
             {"num_layers", c.vl_layers},
             {"positional_embeddings", nullptr}};
  if (c.vl_norm_eps != 1e-5) vl["norm_eps"] = c.vl_norm_eps;
  return vl;
}

json n15_json(const ModelConfig& c) {
  const Dims& d = c.dims;
  json head = {{"action_dim", c.action_dim},
               {"action_horizon", c.horizon},
               {"add_pos_embed", c.add_pos_embed},
               {"backbone_embedding_dim", d.ctx_dim},
               {"diffusion_model_cfg", dit_json(c, true)},
               {"hidden_size", d.hidden},
               {"input_embedding_dim", d.width},
               {"max_action_dim", c.action_dim},
               {"max_state_dim", c.state_dim},
               {"model_dtype", "float32"},
               {"noise_beta_alpha", 1.5},
               {"noise_beta_beta", 1.0},
               {"noise_s", 0.999},
               {"num_inference_timesteps", c.n_steps},
               {"num_target_vision_tokens", c.n_future},
               {"num_timestep_buckets", c.timestep_buckets},
               {"tune_diffusion_model", true},
               {"tune_projector", true},
               {"use_vlln", c.use_vlln}};
  if (c.use_vlln) head["vl_self_attention_cfg"] = vl_stack_json(c);
  // not in the released file, whose values are the class defaults; small models need them
  if (d.pos_rows != 1024) head["max_seq_len"] = d.pos_rows;
  if (c.n_embodiments != 32) head["max_num_embodiments"] = c.n_embodiments;
  return {{"architectures", {architecture_name(c.version)}},
          {"model_type", model_type_name(c.version)},
          {"action_dim", c.action_dim},
          {"action_horizon", c.horizon},
          {"compute_dtype", "bfloat16"},
          {"action_head_cfg", head}};
}

json n16_n17_json(const ModelConfig& c) {
  const Dims& d = c.dims;
  json j = {{"architectures", {architecture_name(c.version)}},
            {"model_type", model_type_name(c.version)},
            {"model_dtype", "bfloat16"},
            {"backbone_embedding_dim", d.ctx_dim},
            {"max_state_dim", c.state_dim},
            {"max_action_dim", c.action_dim},
            {"action_horizon", c.horizon},
            {"hidden_size", d.hidden},
            {"input_embedding_dim", d.width},
            {"add_pos_embed", c.add_pos_embed},
            {"use_vlln", c.use_vlln},
            {"max_seq_len", d.pos_rows},
            {"use_alternate_vl_dit", c.alternate_vl_dit},
            {"attend_text_every_n_blocks", c.text_every_n_blocks},
            {"diffusion_model_cfg", dit_json(c, false)},
            {"num_inference_timesteps", c.n_steps},
            {"num_timestep_buckets", c.timestep_buckets},
            {"max_num_embodiments", c.n_embodiments}};
  if (c.version == Version::n17) {
    j["state_history_length"] = c.state_history;
    if (c.vl_layers > 0) j["vl_self_attention_cfg"] = vl_stack_json(c);
  }
  return j;
}

}  // namespace

std::optional<Version> version_from_json(const json& config) {
  if (!config.is_object() || !config.contains("model_type") || !config["model_type"].is_string()) return std::nullopt;
  std::string norm;
  for (char ch : config["model_type"].get<std::string>())
    if (std::isalnum(static_cast<unsigned char>(ch))) norm += char(std::tolower(static_cast<unsigned char>(ch)));
  for (auto [tag, version] : {std::pair{"n15", Version::n15}, {"n1d5", Version::n15}, {"n16", Version::n16},
                              {"n1d6", Version::n16}, {"n17", Version::n17}, {"n1d7", Version::n17}})
    if (norm.find(tag) != std::string::npos) return version;
  return std::nullopt;
}

DeclaredConfig read_config_json(const json& config, Version version, const std::string& file) {
  if (!config.is_object()) fail("{}: config.json is not a JSON object", file);
  DeclaredConfig out;
  out.settings = default_config(version);
  if (version == Version::n15) read_n15(config, file, out);
  else read_n16_n17(config, version, file, out);
  return out;
}

int image_token_index(const json& config) {
  if (!config.is_object()) return -1;
  if (const auto it = config.find("image_token_index"); it != config.end() && it->is_number_integer()) return it->get<int>();
  for (const auto& [key, child] : config.items())
    if (const int id = image_token_index(child); id >= 0) return id;
  return -1;
}

json config_to_json(const ModelConfig& c) { return c.version == Version::n15 ? n15_json(c) : n16_n17_json(c); }

}  // namespace ditmk::model
