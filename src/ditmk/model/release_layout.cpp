#include "ditmk/model/release_layout.hpp"

#include <fmt/format.h>

namespace ditmk::model {

std::string_view component_name(Component component) {
  switch (component) {
    case Component::dit: return "dit";
    case Component::vl_self_attention: return "vl_self_attention";
    case Component::vlln: return "vlln";
    case Component::state_encoder: return "state_encoder";
    case Component::action_encoder: return "action_encoder";
    case Component::action_decoder: return "action_decoder";
    case Component::position_embedding: return "position_embedding";
    case Component::future_tokens: return "future_tokens";
  }
  return "?";
}

namespace {

struct Builder {
  std::vector<TensorSpec>& out;
  Component component;
  void linear(const std::string& name, int64_t in, int64_t out_features) {
    out.push_back({name + ".weight", {out_features, in}, component});
    out.push_back({name + ".bias", {out_features}, component, true});
  }
  void category(const std::string& name, int64_t slots, int64_t in, int64_t out_features) {
    out.push_back({name + ".W", {slots, in, out_features}, component});
    out.push_back({name + ".b", {slots, out_features}, component});
  }
  void vector(const std::string& name, int64_t n) { out.push_back({name, {n}, component, true}); }
};

}  // namespace

std::vector<TensorSpec> release_tensors(const ModelConfig& c) {
  const Dims& d = c.dims;
  const std::string head = "action_head.";
  const std::string dit = head + "model.";
  std::vector<TensorSpec> out;
  Builder b{out, Component::dit};
  b.linear(dit + "timestep_encoder.timestep_embedder.linear_1", d.temb_channels, d.width);
  b.linear(dit + "timestep_encoder.timestep_embedder.linear_2", d.width, d.width);
  for (int i = 0; i < c.n_blocks; ++i) {
    const std::string blk = fmt::format("{}transformer_blocks.{}.", dit, i);
    const int kv_in = c.is_cross(i) ? d.ctx_dim : d.width;
    b.linear(blk + "norm1.linear", d.width, 2 * d.width);
    b.linear(blk + "attn1.to_q", d.width, d.n_heads * d.head_dim);
    b.linear(blk + "attn1.to_k", kv_in, d.n_heads * d.head_dim);
    b.linear(blk + "attn1.to_v", kv_in, d.n_heads * d.head_dim);
    b.linear(blk + "attn1.to_out.0", d.n_heads * d.head_dim, d.width);
    b.linear(blk + "ff.net.0.proj", d.width, d.ff_dim);
    b.linear(blk + "ff.net.2", d.ff_dim, d.width);
  }
  b.linear(dit + "proj_out_1", d.width, 2 * d.width);
  b.linear(dit + "proj_out_2", d.width, d.out_dim);

  b.component = Component::state_encoder;
  b.category(head + "state_encoder.layer1", c.n_embodiments, c.state_input(), d.hidden);
  b.category(head + "state_encoder.layer2", c.n_embodiments, d.hidden, d.width);
  b.component = Component::action_encoder;
  b.category(head + "action_encoder.W1", c.n_embodiments, c.action_dim, d.width);
  b.category(head + "action_encoder.W2", c.n_embodiments, 2 * d.width, d.width);
  b.category(head + "action_encoder.W3", c.n_embodiments, d.width, d.width);
  b.component = Component::action_decoder;
  b.category(head + "action_decoder.layer1", c.n_embodiments, d.out_dim, d.hidden);
  b.category(head + "action_decoder.layer2", c.n_embodiments, d.hidden, c.action_dim);
  if (c.add_pos_embed)
    out.push_back({head + "position_embedding.weight", {d.pos_rows, d.width}, Component::position_embedding});
  b.component = Component::vlln;
  if (c.use_vlln) {
    b.vector(head + "vlln.weight", d.ctx_dim);
    b.vector(head + "vlln.bias", d.ctx_dim);
  }
  if (c.n_future > 0) out.push_back({head + "future_tokens.weight", {c.n_future, d.width}, Component::future_tokens});
  b.component = Component::vl_self_attention;
  for (int k = 0; k < c.vl_layers; ++k) {
    const std::string layer = fmt::format("{}vl_self_attention.transformer_blocks.{}.", head, k);
    const int inner = d.vl_heads * d.vl_head_dim;
    b.vector(layer + "norm1.weight", d.ctx_dim);
    b.vector(layer + "norm1.bias", d.ctx_dim);
    b.linear(layer + "attn1.to_q", d.ctx_dim, inner);
    b.linear(layer + "attn1.to_k", d.ctx_dim, inner);
    b.linear(layer + "attn1.to_v", d.ctx_dim, inner);
    b.linear(layer + "attn1.to_out.0", inner, d.ctx_dim);
    b.vector(layer + "norm3.weight", d.ctx_dim);
    b.vector(layer + "norm3.bias", d.ctx_dim);
    b.linear(layer + "ff.net.0.proj", d.ctx_dim, d.vl_ff_dim);
    b.linear(layer + "ff.net.2", d.vl_ff_dim, d.ctx_dim);
  }
  return out;
}

}  // namespace ditmk::model
