#include "ditmk/model/observation.hpp"

#include <cmath>

#include "ditmk/core/error.hpp"
#include "ditmk/io/npy.hpp"

namespace ditmk::model {

std::vector<uint8_t> Observation::key_mask(KeySet keys) const {
  std::vector<uint8_t> mask(attention_mask.size(), 0);
  for (std::size_t j = 0; j < mask.size(); ++j) {
    switch (keys) {
      case KeySet::all: mask[j] = attention_mask[j]; break;
      case KeySet::text: mask[j] = attention_mask[j] && !image_mask[j]; break;
      case KeySet::image: mask[j] = attention_mask[j] && image_mask[j]; break;
      case KeySet::self_attn: mask[j] = 1; break;
    }
  }
  return mask;
}

namespace {

std::vector<uint8_t> read_mask(const Tensor& t, int tokens, const std::string& what) {
  const bool one_row = t.shape().size() == 2 && t.shape()[0] == 1;
  if (!(t.shape().size() == 1 || one_row) || t.numel() != tokens)
    fail("{}: shape {} does not match the {} feature tokens", what, shape_str(t.shape()), tokens);
  if (t.dtype() != DType::BOOL && t.dtype() != DType::I64 && t.dtype() != DType::I32)
    fail("{}: dtype {} (expected bool or integer 0/1)", what, dtype_name(t.dtype()));
  std::vector<uint8_t> mask(tokens);
  for (int j = 0; j < tokens; ++j) {
    const double v = t.view().at(j);
    if (v != 0.0 && v != 1.0) fail("{}: entry {} is {} (expected 0 or 1)", what, j, v);
    mask[j] = uint8_t(v);
  }
  return mask;
}

Tensor to_f32(const Tensor& t) {
  if (t.dtype() == DType::F32) return Tensor::from_view(t.view());
  Tensor out(DType::F32, t.shape());
  for (int64_t i = 0; i < t.numel(); ++i) out.data<float>()[i] = float(t.view().at(i));
  return out;
}

}  // namespace

void validate_observation(const Observation& obs, const ModelConfig& c, const std::string& what) {
  const Shape& shape = obs.features.shape();
  if (shape.size() != 2 || shape[1] != c.dims.ctx_dim || shape[0] < 1)
    fail("{}:features: shape {} (expected [S, {}] with S >= 1)", what, shape_str(shape), c.dims.ctx_dim);
  const float* f = obs.features.data<float>();
  for (int64_t i = 0; i < obs.features.numel(); ++i)
    if (!std::isfinite(f[i])) fail("{}:features: non-finite value {} at row {}, column {}", what, f[i], i / shape[1], i % shape[1]);
  if (int(obs.state.size()) != c.state_dim)
    fail("{}:state: {} values (the model's state dimension is {})", what, obs.state.size(), c.state_dim);
  for (std::size_t i = 0; i < obs.state.size(); ++i)
    if (!std::isfinite(obs.state[i])) fail("{}:state: non-finite value at index {}", what, i);
  for (int b = 0; b < c.n_blocks; ++b) {
    if (!c.is_cross(b)) continue;
    const auto mask = obs.key_mask(c.block_keys[b]);
    bool any = false;
    for (uint8_t m : mask) any = any || m;
    if (!any)
      fail("{}:attention_mask/image_mask: the '{}' key set is empty, so every query row of cross block {} has no "
           "admissible key",
           what, key_set_name(c.block_keys[b]), b);
  }
}

Observation load_observation(const std::string& path, const ModelConfig& c, int image_token_id) {
  auto arrays = io::read_npz(path);
  const auto features = arrays.find("features");
  if (features == arrays.end()) fail("{}: missing array 'features' [S, {}]", path, c.dims.ctx_dim);
  if (features->second.dtype() != DType::F32 && features->second.dtype() != DType::F16)
    fail("{}:features: dtype {} (expected float32 or float16)", path, dtype_name(features->second.dtype()));
  Observation obs;
  obs.features = to_f32(features->second);
  if (obs.features.shape().size() != 2)
    fail("{}:features: shape {} (expected [S, {}])", path, shape_str(obs.features.shape()), c.dims.ctx_dim);
  const int tokens = int(obs.features.shape()[0]);
  obs.attention_mask.assign(tokens, 1);
  obs.image_mask.assign(tokens, 0);
  if (auto it = arrays.find("attention_mask"); it != arrays.end())
    obs.attention_mask = read_mask(it->second, tokens, path + ":attention_mask");
  if (auto it = arrays.find("image_mask"); it != arrays.end()) {
    obs.image_mask = read_mask(it->second, tokens, path + ":image_mask");
  } else if (auto ids = arrays.find("input_ids"); ids != arrays.end()) {
    if (image_token_id < 0)
      fail("{}:input_ids: an image token id is needed to find the image tokens (--image-token-id, or "
           "image_token_index in config.json)", path);
    const Tensor& t = ids->second;
    if (t.numel() != tokens || (t.dtype() != DType::I64 && t.dtype() != DType::I32))
      fail("{}:input_ids: expected {} integer ids, got shape {} {}", path, tokens, shape_str(t.shape()), dtype_name(t.dtype()));
    for (int j = 0; j < tokens; ++j) obs.image_mask[j] = t.view().at(j) == double(image_token_id);
  }
  obs.state.assign(c.state_dim, 0.0f);
  if (auto it = arrays.find("state"); it != arrays.end()) {
    const Tensor& s = it->second;
    if (s.dtype() != DType::F32 && s.dtype() != DType::F16 && s.dtype() != DType::F64)
      fail("{}:state: dtype {} (expected float)", path, dtype_name(s.dtype()));
    const bool ok_shape = (s.shape().size() == 1) || (s.shape().size() == 2 && s.shape()[0] == 1);
    if (!ok_shape || s.numel() != c.state_dim)
      fail("{}:state: shape {} (expected [{}] or [1, {}])", path, shape_str(s.shape()), c.state_dim, c.state_dim);
    for (int i = 0; i < c.state_dim; ++i) obs.state[i] = float(s.view().at(i));
  }
  validate_observation(obs, c, path);
  return obs;
}

}  // namespace ditmk::model
