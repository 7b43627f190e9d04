#include "ditmk/model/observation.hpp"

#include <cmath>
#include <set>

#include "ditmk/core/error.hpp"
#include "ditmk/io/npy.hpp"

namespace ditmk::model {

void Observation::own_features(Tensor t) {
  owned_features = std::make_shared<const Tensor>(std::move(t));
  features = owned_features->view();
}

std::vector<uint8_t> Observation::key_mask(KeySet keys, bool mask_padding) const {
  std::vector<uint8_t> mask(attention_mask.size(), 0);
  for (std::size_t j = 0; j < mask.size(); ++j) {
    switch (keys) {
      case KeySet::all: mask[j] = mask_padding ? attention_mask[j] : 1; break;
      case KeySet::text: mask[j] = attention_mask[j] && !image_mask[j]; break;
      case KeySet::image: mask[j] = attention_mask[j] && image_mask[j]; break;
      case KeySet::self_attn: mask[j] = 1; break;
    }
  }
  return mask;
}

namespace {

std::string field(const std::string& what, const std::string& array) { return what.empty() ? array : what + ":" + array; }

// [n] or [1, n]: one row of per-token values
bool one_row_of(const Shape& shape, int64_t n) {
  return (shape.size() == 1 && shape[0] == n) || (shape.size() == 2 && shape[0] == 1 && shape[1] == n);
}

bool is_integer(DType t) { return t == DType::I64 || t == DType::I32; }

std::vector<uint8_t> read_mask(const TensorView& t, int tokens, const std::string& what) {
  if (!one_row_of(t.shape, tokens))
    fail("{}: shape {} does not match the {} feature tokens", what, shape_str(t.shape), tokens);
  if (t.dtype != DType::BOOL && !is_integer(t.dtype))
    fail("{}: dtype {} (expected bool or integer 0/1)", what, dtype_name(t.dtype));
  std::vector<uint8_t> mask(tokens);
  for (int j = 0; j < tokens; ++j) {
    const double v = t.at(j);
    if (v != 0.0 && v != 1.0) fail("{}: entry {} is {} (expected 0 or 1)", what, j, v);
    mask[j] = uint8_t(v);
  }
  return mask;
}

// one frame: [S] or [1, S]; L frames (N1.7 state history): [L, S] or [1, L, S]
void check_state_shape(const Shape& shape, const ModelConfig& c, const std::string& what) {
  Shape frames = shape;
  if (frames.size() == 3 && frames[0] == 1) frames.erase(frames.begin());
  const bool ok = (frames.size() == 1 && c.state_history == 1 && frames[0] == c.state_dim) ||
                  (frames.size() == 2 && frames[0] == c.state_history && frames[1] == c.state_dim);
  if (!ok)
    fail("{}: shape {} (expected [{}, {}]: state history x state dimension{})", what, shape_str(shape), c.state_history,
         c.state_dim, c.state_history == 1 ? fmt::format(", or [{}]", c.state_dim) : "");
}

}  // namespace

namespace {

// The checks of validate_observation; `features_name` names the features in errors.
void check_observation(const Observation& obs, const ModelConfig& c, const std::string& what,
                       const std::string& features_name) {
  const Shape& shape = obs.features.shape;
  if (shape.size() != 2 || shape[1] != c.dims.ctx_dim || shape[0] < 1)
    fail("{}: shape {} (expected [S, {}] with S >= 1)", features_name, shape_str(shape), c.dims.ctx_dim);
  for (int64_t i = 0; i < obs.features.numel(); ++i)
    if (const double v = obs.features.at(std::size_t(i)); !std::isfinite(v))
      fail("{}: non-finite value {} at row {}, column {}", features_name, v, i / shape[1], i % shape[1]);
  if (int(obs.state.size()) != c.state_input())
    fail("{}: {} values (the model takes {} = state history {} x state dimension {})", field(what, "state"),
         obs.state.size(), c.state_input(), c.state_history, c.state_dim);
  for (std::size_t i = 0; i < obs.state.size(); ++i)
    if (!std::isfinite(obs.state[i])) fail("{}: non-finite value at index {}", field(what, "state"), i);
  for (int b = 0; b < c.n_blocks; ++b) {
    if (!c.is_cross(b)) continue;
    const auto mask = obs.key_mask(c.block_keys[b], c.mask_padding);
    bool any = false;
    for (uint8_t m : mask) any = any || m;
    if (!any)
      fail("{}: the '{}' key set is empty, so every query row of cross block {} has no admissible key",
           field(what, "attention_mask/image_mask"), key_set_name(c.block_keys[b]), b);
  }
}

}  // namespace

void validate_observation(const Observation& obs, const ModelConfig& c, const std::string& what) {
  check_observation(obs, c, what, field(what, "features"));
}

namespace {

// The array a field names, under its ditmk name or its GR00T name (the backbone output's): the
// name it came under names it in errors.
struct Found {
  const TensorView* array = nullptr;
  std::string name;
};
Found find_array(const ObservationArrays& arrays, const char* name, const char* groot_name, const std::string& what) {
  Found found;
  for (const char* n : {name, groot_name}) {
    if (n == nullptr) continue;
    const auto it = arrays.find(n);
    if (it == arrays.end()) continue;
    if (found.array) fail("{}: given twice, as '{}' and '{}'", field(what, name), name, groot_name);
    found = {&it->second, field(what, n)};
  }
  return found;
}

}  // namespace

Observation make_observation(const ObservationArrays& arrays, const ModelConfig& c, const std::string& what,
                             int image_token_id) {
  static const std::set<std::string> known = {"features", "backbone_features", "attention_mask",
                                              "backbone_attention_mask", "image_mask", "input_ids", "state"};
  for (const auto& [name, array] : arrays)
    if (!known.count(name))
      fail("{}: unknown array (expected features, attention_mask, image_mask, input_ids, state)", field(what, name));
  const Found features = find_array(arrays, "features", "backbone_features", what);
  if (!features.array) fail("{}: missing array 'features' [S, {}]", what.empty() ? "observation" : what, c.dims.ctx_dim);
  const TensorView& f = *features.array;
  if (f.dtype != DType::F32 && f.dtype != DType::F16 && f.dtype != DType::BF16)
    fail("{}: dtype {} (expected float32, float16 or bfloat16)", features.name, dtype_name(f.dtype));
  Observation obs;
  obs.features = f;
  if (f.shape.size() == 3 && f.shape[0] == 1) obs.features.shape.erase(obs.features.shape.begin());  // a batch of one
  if (obs.features.shape.size() != 2 || obs.features.shape[1] != c.dims.ctx_dim || obs.features.shape[0] < 1)
    fail("{}: shape {} (expected [S, {}] with S >= 1)", features.name, shape_str(f.shape), c.dims.ctx_dim);
  const int tokens = obs.tokens();
  obs.attention_mask.assign(tokens, 1);
  obs.image_mask.assign(tokens, 0);
  if (const Found mask = find_array(arrays, "attention_mask", "backbone_attention_mask", what); mask.array)
    obs.attention_mask = read_mask(*mask.array, tokens, mask.name);
  if (auto it = arrays.find("image_mask"); it != arrays.end()) {
    obs.image_mask = read_mask(it->second, tokens, field(what, "image_mask"));
  } else if (auto ids = arrays.find("input_ids"); ids != arrays.end()) {
    if (image_token_id < 0)
      fail("{}: an image token id is needed to find the image tokens (--image-token-id, or image_token_index in "
           "config.json)", field(what, "input_ids"));
    const TensorView& t = ids->second;
    if (!one_row_of(t.shape, tokens) || !is_integer(t.dtype))
      fail("{}: expected {} integer ids, got shape {} {}", field(what, "input_ids"), tokens, shape_str(t.shape),
           dtype_name(t.dtype));
    for (int j = 0; j < tokens; ++j) obs.image_mask[j] = t.at(j) == double(image_token_id);
  }
  obs.state.assign(c.state_input(), 0.0f);
  if (auto it = arrays.find("state"); it != arrays.end()) {
    const TensorView& s = it->second;
    if (!is_float(s.dtype))
      fail("{}: dtype {} (expected float)", field(what, "state"), dtype_name(s.dtype));
    check_state_shape(s.shape, c, field(what, "state"));
    for (int i = 0; i < c.state_input(); ++i) obs.state[i] = float(s.at(i));
  }
  check_observation(obs, c, what, features.name);
  return obs;
}

Observation load_observation(const std::string& path, const ModelConfig& c, int image_token_id) {
  auto arrays = std::make_shared<const std::map<std::string, Tensor>>(io::read_npz(path));
  ObservationArrays views;
  for (const auto& [name, tensor] : *arrays) views[name] = tensor.view();
  Observation obs = make_observation(views, c, path, image_token_id);
  obs.owned_features = std::shared_ptr<const Tensor>(arrays, &arrays->at(arrays->count("features") ? "features" : "backbone_features"));
  return obs;
}

void write_observation(const Observation& obs, const ModelConfig& c, const std::string& path) {
  Tensor mask(DType::BOOL, {obs.tokens()}), image(DType::BOOL, {obs.tokens()});
  Tensor state(DType::F32, c.state_history == 1 ? Shape{c.state_dim} : Shape{c.state_history, c.state_dim});
  require(int64_t(obs.state.size()) == state.numel(), "observation: {} state values, the model takes {}", obs.state.size(),
          state.numel());
  for (int j = 0; j < obs.tokens(); ++j) mask.data<uint8_t>()[j] = obs.attention_mask[j], image.data<uint8_t>()[j] = obs.image_mask[j];
  std::copy(obs.state.begin(), obs.state.end(), state.data<float>());
  io::write_npz(path, {{"features", obs.features}, {"attention_mask", mask.view()}, {"image_mask", image.view()},
                       {"state", state.view()}});
}

}  // namespace ditmk::model
