#include "ditmk/model/weights.hpp"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/model/config_json.hpp"
#include "ditmk/model/release_layout.hpp"

namespace ditmk::model {

std::string dit_name(const std::string& rest) { return "action_head.model." + rest; }
std::string head_name(const std::string& rest) { return "action_head." + rest; }

namespace {

int64_t dim_of(const io::Checkpoint& ckpt, const std::string& name, std::size_t axis, std::size_t rank) {
  const TensorView v = ckpt.get(name);
  if (v.shape.size() != rank)
    fail("{}: tensor '{}' has shape {}, expected {} dimensions", ckpt.file_of(name), name, shape_str(v.shape), rank);
  return v.shape[axis];
}

int count_indexed(const io::Checkpoint& ckpt, const std::string& prefix, const std::string& suffix) {
  int n = 0;
  while (ckpt.has(fmt::format("{}{}{}", prefix, n, suffix))) ++n;
  return n;
}

// model_type names the version; without it the tensors tell: future tokens are N1.5's, a VL stack
// without them N1.7's (an N1.7 release may also have none, which only its model_type can say).
Version detect_version(const io::Checkpoint& ckpt, int vl_layers) {
  const bool has_future = ckpt.has(head_name("future_tokens.weight"));
  const Version from_tensors = has_future ? Version::n15 : (vl_layers > 0 ? Version::n17 : Version::n16);
  const auto from_config = version_from_json(ckpt.config());
  if (from_config && *from_config != from_tensors) {
    const bool consistent = (*from_config == Version::n15) == has_future && (*from_config != Version::n16 || vl_layers == 0);
    if (!consistent)
      fail("{}: config.json says {} but the tensors are those of {} (future tokens: {}, VL self-attention layers: {})",
           ckpt.path(), version_name(*from_config), version_name(from_tensors), has_future ? "yes" : "no", vl_layers);
    return *from_config;
  }
  return from_tensors;
}

// config.json of the checkpoint, or the version's released settings for a file without one.
DeclaredConfig declared_config(const io::Checkpoint& ckpt, Version version) {
  if (ckpt.config().is_null()) return {default_config(version)};
  return read_config_json(ckpt.config(), version, ckpt.path() + "/config.json");
}

// The context width: what the first cross block's to_k takes, else the VL features' LayerNorm.
int context_width(const io::Checkpoint& ckpt, const ModelConfig& c, int fallback) {
  for (int i = 0; i < c.n_blocks; ++i)
    if (c.is_cross(i)) return int(dim_of(ckpt, dit_name(fmt::format("transformer_blocks.{}.attn1.to_k.weight", i)), 1, 2));
  if (ckpt.has(head_name("vlln.weight"))) return int(dim_of(ckpt, head_name("vlln.weight"), 0, 1));
  return fallback;
}

// A size config.json declares must be the one the tensors have.
void check_declared(const io::Checkpoint& ckpt, const std::optional<DeclaredSize>& declared, int actual, const char* what) {
  if (declared && declared->value != actual)
    fail("{}/config.json: field '{}' = {}, but the tensors have {} {}", ckpt.path(), declared->field, declared->value,
         actual, what);
}

ModelConfig detect_config(const io::Checkpoint& ckpt) {
  const int vl_layers = count_indexed(ckpt, head_name("vl_self_attention.transformer_blocks."), ".attn1.to_q.weight");
  const DeclaredConfig declared = declared_config(ckpt, detect_version(ckpt, vl_layers));
  ModelConfig c = declared.settings;
  Dims& d = c.dims;
  c.vl_layers = vl_layers;
  c.n_blocks = count_indexed(ckpt, dit_name("transformer_blocks."), ".norm1.linear.weight");
  if (c.n_blocks == 0) fail("{}: missing tensor '{}'", ckpt.path(), dit_name("transformer_blocks.0.norm1.linear.weight"));
  c.block_keys = block_schedule(c);
  d.width = int(dim_of(ckpt, dit_name("transformer_blocks.0.attn1.to_q.weight"), 1, 2));
  d.ff_dim = int(dim_of(ckpt, dit_name("transformer_blocks.0.ff.net.0.proj.weight"), 0, 2));
  d.ctx_dim = context_width(ckpt, c, declared.ctx_dim ? declared.ctx_dim->value : d.width);
  d.out_dim = int(dim_of(ckpt, dit_name("proj_out_2.weight"), 0, 2));
  d.temb_channels = int(dim_of(ckpt, dit_name("timestep_encoder.timestep_embedder.linear_1.weight"), 1, 2));
  if (c.add_pos_embed) d.pos_rows = int(dim_of(ckpt, head_name("position_embedding.weight"), 0, 2));
  d.hidden = int(dim_of(ckpt, head_name("state_encoder.layer1.W"), 2, 3));
  c.n_embodiments = int(dim_of(ckpt, head_name("state_encoder.layer1.W"), 0, 3));
  const int state_input = int(dim_of(ckpt, head_name("state_encoder.layer1.W"), 1, 3));
  if (state_input % c.state_history != 0)
    fail("{}/config.json: field 'state_history_length' = {} does not divide the state encoder's {} inputs", ckpt.path(),
         c.state_history, state_input);
  c.state_dim = state_input / c.state_history;
  c.action_dim = int(dim_of(ckpt, head_name("action_encoder.W1.W"), 1, 3));
  c.n_future = ckpt.has(head_name("future_tokens.weight")) ? int(dim_of(ckpt, head_name("future_tokens.weight"), 0, 2)) : 0;
  check_declared(ckpt, declared.n_blocks, c.n_blocks, "DiT blocks");
  check_declared(ckpt, declared.width, d.width, "as the DiT width");
  check_declared(ckpt, declared.ctx_dim, d.ctx_dim, "as the VL feature (cross-attention context) width");
  if (c.use_vlln)
    check_declared(ckpt, declared.vl_width, int(dim_of(ckpt, head_name("vlln.weight"), 0, 1)), "as the vlln width");
  check_declared(ckpt, declared.out_dim, d.out_dim, "as the DiT output width");
  check_declared(ckpt, declared.hidden, d.hidden, "as the state encoder's hidden width");
  check_declared(ckpt, declared.action_dim, c.action_dim, "as the action dimension");
  check_declared(ckpt, declared.state_dim, c.state_dim, "as the state dimension (state encoder inputs / history)");
  check_declared(ckpt, declared.n_future, c.n_future, "future tokens");
  check_declared(ckpt, declared.pos_rows, d.pos_rows, "position embedding rows");
  check_declared(ckpt, declared.n_embodiments, c.n_embodiments, "embodiment slots");
  check_declared(ckpt, declared.vl_layers, c.vl_layers, "VL self-attention layers");
  if (c.version == Version::n15 && !c.use_vlln && vl_layers > 0)
    fail("{}/config.json: field 'action_head_cfg.use_vlln' = false removes the VL self-attention stack, but the "
         "tensors have {} layers of it", ckpt.path(), vl_layers);

  const int inner = int(dim_of(ckpt, dit_name("transformer_blocks.0.attn1.to_q.weight"), 0, 2));
  if (ckpt.config().is_null()) d.head_dim = inner / d.n_heads;
  if (d.n_heads <= 0 || d.head_dim <= 0 || d.n_heads * d.head_dim != inner)
    fail("{}: config.json: num_attention_heads {} x attention_head_dim {} != attention width {}", ckpt.path(), d.n_heads,
         d.head_dim, inner);
  if (vl_layers > 0) {
    const std::string q = head_name("vl_self_attention.transformer_blocks.0.attn1.to_q.weight");
    const int vl_inner = int(dim_of(ckpt, q, 0, 2));
    d.vl_ff_dim = int(dim_of(ckpt, head_name("vl_self_attention.transformer_blocks.0.ff.net.0.proj.weight"), 0, 2));
    if (ckpt.config().is_null()) d.vl_head_dim = vl_inner / d.vl_heads;
    if (d.vl_heads <= 0 || d.vl_heads * d.vl_head_dim != vl_inner)
      fail("{}: config.json: VL num_attention_heads {} x attention_head_dim {} != {}", ckpt.path(), d.vl_heads,
           d.vl_head_dim, vl_inner);
  }
  if (c.add_pos_embed && c.horizon > d.pos_rows)
    fail("{}: config.json: action_horizon {} exceeds the {} position embedding rows", ckpt.path(), c.horizon, d.pos_rows);

  for (int i = 0; i < c.n_blocks; ++i) {
    const std::string k = dit_name(fmt::format("transformer_blocks.{}.attn1.to_k.weight", i));
    const int kv_in = int(dim_of(ckpt, k, 1, 2));
    if (d.ctx_dim != d.width && (kv_in == d.ctx_dim) != c.is_cross(i))
      fail("{}: tensor '{}' takes {} inputs: block {} should be {}-attention in {}", ckpt.file_of(k), k, kv_in, i,
           c.is_cross(i) ? "cross" : "self", version_name(c.version));
  }
  if (ckpt.embodiments().is_object()) {
    c.embodiment_ids.clear();
    for (const auto& [tag, id] : ckpt.embodiments().items()) {
      if (!id.is_number_integer()) fail("{}/embodiment_id.json: '{}' is not an integer id", ckpt.path(), tag);
      c.embodiment_ids[tag] = id.get<int>();
    }
  }
  return c;
}

Linear linear(const io::Checkpoint& ckpt, const std::string& name) {
  return {ckpt.get(name + ".weight"), ckpt.get(name + ".bias")};
}
CategoryLinear category(const io::Checkpoint& ckpt, const std::string& name) {
  return {ckpt.get(name + ".W"), ckpt.get(name + ".b")};
}

void check_tensors(const io::Checkpoint& ckpt, const ModelConfig& c) {
  for (const TensorSpec& spec : release_tensors(c)) {
    const TensorView v = ckpt.get(spec.name);
    if (v.dtype != DType::F32 && v.dtype != DType::BF16 && v.dtype != DType::F16)
      fail("{}: tensor '{}' has dtype {} (expected F32, BF16 or F16)", ckpt.file_of(spec.name), spec.name,
           dtype_name(v.dtype));
    if (v.shape != spec.shape)
      fail("{}: tensor '{}' has shape {}, expected {}", ckpt.file_of(spec.name), spec.name, shape_str(v.shape),
           shape_str(spec.shape));
  }
}

}  // namespace

Linear CategoryLinear::slice(int e) const {
  const int64_t in = W.shape[1], out = W.shape[2];
  const std::size_t w_stride = std::size_t(in * out) * dtype_size(W.dtype);
  const std::size_t b_stride = std::size_t(out) * dtype_size(b.dtype);
  return {{W.dtype, {in, out}, W.data + e * w_stride}, {b.dtype, {out}, b.data + e * b_stride}};
}

EmbodimentWeights Weights::embodiment(int id) const {
  require(id >= 0 && id < config.n_embodiments, "embodiment {} outside 0..{}", id, config.n_embodiments - 1);
  return {id, state1.slice(id), state2.slice(id), enc1.slice(id), enc2.slice(id), enc3.slice(id), dec1.slice(id), dec2.slice(id)};
}

int Weights::resolve_embodiment(const std::string& text) const {
  int id = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec == std::errc() && end == text.data() + text.size()) {
    require(id >= 0 && id < config.n_embodiments, "embodiment {}: id outside 0..{}", id, config.n_embodiments - 1);
    return id;
  }
  const auto it = config.embodiment_ids.find(text);
  if (it == config.embodiment_ids.end()) {
    std::string known;
    for (const auto& [tag, slot] : config.embodiment_ids) known += fmt::format("{}{}={}", known.empty() ? "" : ", ", tag, slot);
    fail("embodiment '{}': unknown (known: {})", text, known.empty() ? "numeric ids only" : known);
  }
  require(it->second >= 0 && it->second < config.n_embodiments, "embodiment '{}' maps to slot {} outside 0..{}", text,
          it->second, config.n_embodiments - 1);
  return it->second;
}

Weights load_weights(const std::string& path) {
  return load_weights(std::make_shared<const io::Checkpoint>(io::Checkpoint::open(path)));
}

Weights load_weights(std::shared_ptr<const io::Checkpoint> checkpoint) {
  const io::Checkpoint& ckpt = *checkpoint;
  Weights w;
  w.config = detect_config(ckpt);
  check_tensors(ckpt, w.config);
  w.checkpoint = checkpoint;
  w.temb1 = linear(ckpt, dit_name("timestep_encoder.timestep_embedder.linear_1"));
  w.temb2 = linear(ckpt, dit_name("timestep_encoder.timestep_embedder.linear_2"));
  for (int i = 0; i < w.config.n_blocks; ++i) {
    const std::string p = dit_name(fmt::format("transformer_blocks.{}.", i));
    w.blocks.push_back({w.config.block_keys[i], linear(ckpt, p + "norm1.linear"), linear(ckpt, p + "attn1.to_q"),
                        linear(ckpt, p + "attn1.to_k"), linear(ckpt, p + "attn1.to_v"), linear(ckpt, p + "attn1.to_out.0"),
                        linear(ckpt, p + "ff.net.0.proj"), linear(ckpt, p + "ff.net.2")});
  }
  w.proj_out_1 = linear(ckpt, dit_name("proj_out_1"));
  w.proj_out_2 = linear(ckpt, dit_name("proj_out_2"));
  w.state1 = category(ckpt, head_name("state_encoder.layer1"));
  w.state2 = category(ckpt, head_name("state_encoder.layer2"));
  w.enc1 = category(ckpt, head_name("action_encoder.W1"));
  w.enc2 = category(ckpt, head_name("action_encoder.W2"));
  w.enc3 = category(ckpt, head_name("action_encoder.W3"));
  w.dec1 = category(ckpt, head_name("action_decoder.layer1"));
  w.dec2 = category(ckpt, head_name("action_decoder.layer2"));
  if (w.config.add_pos_embed) w.position_embedding = ckpt.get(head_name("position_embedding.weight"));
  if (w.config.use_vlln) {
    w.vlln_weight = ckpt.get(head_name("vlln.weight"));
    w.vlln_bias = ckpt.get(head_name("vlln.bias"));
  }
  if (w.config.n_future > 0) w.future_tokens = ckpt.get(head_name("future_tokens.weight"));
  for (int k = 0; k < w.config.vl_layers; ++k) {
    const std::string p = head_name(fmt::format("vl_self_attention.transformer_blocks.{}.", k));
    w.vl_layers.push_back({ckpt.get(p + "norm1.weight"), ckpt.get(p + "norm1.bias"), ckpt.get(p + "norm3.weight"),
                           ckpt.get(p + "norm3.bias"), linear(ckpt, p + "attn1.to_q"), linear(ckpt, p + "attn1.to_k"),
                           linear(ckpt, p + "attn1.to_v"), linear(ckpt, p + "attn1.to_out.0"),
                           linear(ckpt, p + "ff.net.0.proj"), linear(ckpt, p + "ff.net.2")});
  }
  return w;
}

}  // namespace ditmk::model
