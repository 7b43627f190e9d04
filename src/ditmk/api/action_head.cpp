#include <chrono>
#include <nlohmann/json.hpp>

#include "ditmk/api/backend.hpp"
#include "ditmk/api/ditmk.hpp"
#include "ditmk/model/config_json.hpp"
#include "ditmk/model/observation_batch.hpp"
#include "ditmk/model/synthetic.hpp"

namespace ditmk {

nlohmann::json ModelInfo::to_json() const {
  return {{"version", version},         {"checkpoint", checkpoint},       {"backend", backend},
          {"dtype", dtype},             {"isa", isa},                     {"threads", threads},
          {"n_blocks", n_blocks},       {"width", width},                 {"heads", heads},
          {"head_dim", head_dim},       {"context_dim", context_dim},     {"vl_layers", vl_layers},
          {"future_tokens", future_tokens}, {"action_dim", action_dim},   {"state_dim", state_dim},
          {"state_history", state_history}, {"horizon", horizon},         {"n_steps", n_steps},
          {"n_embodiments", n_embodiments}, {"embodiments", embodiments}, {"default_embodiment", default_embodiment},
          {"mask_padding", mask_padding},   {"weight_cache", weight_cache},
          {"reuse_vision_language", reuse_vision_language}, {"vl_cache_bytes", vl_cache_bytes},
          {"vl_reused_calls", vl_reused_calls}};
}

struct ActionHead::State {
  model::Weights weights;
  ModelInfo info;
  int default_slot = 0;
  int image_token_id = -1;
  std::unique_ptr<api::Backend> backend;
  model::Observation vision_language;  // set_vision_language's (owned features, no state); empty: none
  Tensor vl_attention_mask, vl_image_mask;  // its masks as arrays, for observation()

  std::size_t vision_language_bytes() const {
    if (!vision_language.owned_features) return 0;
    return vision_language.features.nbytes() + vl_attention_mask.nbytes() + vl_image_mask.nbytes();
  }
  void report_vision_language() { info.vl_cache_bytes = vision_language_bytes() + backend->vision_language_bytes(); }
};

model::Weights open_weights(const OpenOptions& o) {
  model::Weights w = o.checkpoint.empty()
                         ? model::load_weights(model::ensure_default_model(model::parse_version(o.version)))
                         : model::load_weights(o.checkpoint);
  w.config.mask_padding = o.mask_padding;
  return w;
}

namespace {

ModelInfo describe_head(const model::Weights& w, const OpenOptions& o, const api::Backend& backend) {
  const model::ModelConfig& c = w.config;
  ModelInfo i;
  i.version = model::version_name(c.version);
  i.checkpoint = w.checkpoint->path();
  i.backend = o.backend, i.dtype = o.backend == "ref" ? "float64" : o.dtype, i.isa = backend.isa();
  i.threads = backend.threads();
  i.n_blocks = c.n_blocks, i.width = c.dims.width, i.heads = c.dims.n_heads, i.head_dim = c.dims.head_dim;
  i.context_dim = c.dims.ctx_dim, i.vl_layers = c.vl_layers, i.future_tokens = c.n_future;
  i.action_dim = c.action_dim, i.state_dim = c.state_dim, i.state_history = c.state_history, i.horizon = c.horizon;
  i.n_steps = c.n_steps, i.n_embodiments = c.n_embodiments, i.embodiments = c.embodiment_ids;
  i.default_embodiment = model::default_embodiment(c);
  i.mask_padding = c.mask_padding;
  i.weight_cache = backend.weight_cache();
  i.reuse_vision_language = o.reuse_vision_language;
  return i;
}

}  // namespace

ActionHead::ActionHead(const OpenOptions& options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  api::check_backend_options(options);
  s.weights = open_weights(options);
  s.image_token_id = model::image_token_index(s.weights.checkpoint->config());
  s.default_slot = s.weights.resolve_embodiment(model::default_embodiment(s.weights.config));
  s.backend = api::open_backend(s.weights, s.default_slot, options);
  s.info = describe_head(s.weights, options, *s.backend);
}

ActionHead::~ActionHead() = default;
ActionHead::ActionHead(ActionHead&&) noexcept = default;
ActionHead& ActionHead::operator=(ActionHead&&) noexcept = default;

const ModelInfo& ActionHead::info() const { return state_->info; }
const model::Weights& ActionHead::weights() const { return state_->weights; }

namespace {

std::string field_of(const std::string& what, const std::string& name) { return what.empty() ? name : what + ":" + name; }

}  // namespace

model::Observation ActionHead::observation(const model::ObservationArrays& arrays, const std::string& what) const {
  const State& s = *state_;
  if (arrays.count("features") || arrays.count("backbone_features"))
    return model::make_observation(arrays, s.weights.config, what, s.image_token_id);
  for (const char* name : {"attention_mask", "backbone_attention_mask", "image_mask", "input_ids"})
    if (arrays.count(name))
      fail("{}: given without features (a call without features uses the features and masks of set_vision_language)",
           field_of(what, name));
  if (!s.vision_language.owned_features)
    fail("{}: missing, and no vision-language inputs were set (set_vision_language)", field_of(what, "features"));
  model::ObservationArrays with_kept = arrays;
  with_kept["features"] = s.vision_language.features;
  with_kept["attention_mask"] = s.vl_attention_mask.view(), with_kept["image_mask"] = s.vl_image_mask.view();
  model::Observation obs = model::make_observation(with_kept, s.weights.config, what, s.image_token_id);
  obs.owned_features = s.vision_language.owned_features;  // alive even if another set replaces them
  return obs;
}

void ActionHead::set_vision_language(const model::ObservationArrays& arrays, const std::string& what) {
  State& s = *state_;
  if (arrays.count("state"))
    fail("{}: not a vision-language input (pass the state with each call)", field_of(what, "state"));
  if (!arrays.count("features") && !arrays.count("backbone_features"))
    fail("{}: missing array 'features' [S, {}]", field_of(what, "features"), s.weights.config.dims.ctx_dim);
  model::Observation obs = model::make_observation(arrays, s.weights.config, what, s.image_token_id);
  obs.own_features(Tensor::from_view(obs.features));
  obs.state.clear();
  auto mask_array = [](const std::vector<uint8_t>& mask) {
    Tensor t(DType::BOOL, {int64_t(mask.size())});
    std::copy(mask.begin(), mask.end(), t.data<uint8_t>());
    return t;
  };
  s.vl_attention_mask = mask_array(obs.attention_mask), s.vl_image_mask = mask_array(obs.image_mask);
  s.vision_language = std::move(obs);
  s.report_vision_language();
}

void ActionHead::clear_vision_language() {
  State& s = *state_;
  s.vision_language = {};
  s.vl_attention_mask = {}, s.vl_image_mask = {};
  s.report_vision_language();
}

bool ActionHead::has_vision_language() const { return bool(state_->vision_language.owned_features); }

model::Observation ActionHead::load_observation(const std::string& npz, int image_token_id) const {
  return model::load_observation(npz, state_->weights.config, image_token_id >= 0 ? image_token_id : state_->image_token_id);
}

model::Observation ActionHead::synthetic_observation(uint64_t seed) const {
  return model::synthetic_observation(state_->weights.config, seed);
}

int ActionHead::embodiment_slot(const std::string& id_or_tag) const {
  return id_or_tag.empty() ? state_->default_slot : state_->weights.resolve_embodiment(id_or_tag);
}

namespace {

// Where a call's Euler loop starts: its noise (given, or drawn from its seed) and real-time chunking.
model::EulerStart call_start(const CallOptions& call, const model::ModelConfig& c) {
  Matrix<double> noise;
  if (call.noise) {
    TensorView view = *call.noise;
    if (view.shape.size() == 3 && view.shape[0] == 1) view.shape.erase(view.shape.begin());  // a batch of one
    noise = model::noise_matrix(view, c, call.noise_name);
  } else {
    noise = model::noise_matrix(model::synthetic_noise(c, call.seed).view(), c, "noise");
  }
  return model::euler_start(std::move(noise), call.previous_actions, call.rtc, c, call.previous_actions_name);
}

std::string sample_name(std::size_t i) { return "sample " + std::to_string(i); }

}  // namespace

std::vector<model::Observation> ActionHead::observations(const model::ObservationArrays& batched,
                                                         const std::string& what) const {
  std::vector<model::Observation> batch;
  const std::vector<model::ObservationArrays> samples = model::split_batch(batched, what);
  for (std::size_t i = 0; i < samples.size(); ++i)
    batch.push_back(observation(samples[i], field_of(what, sample_name(i))));
  return batch;
}

model::DenoiseResult ActionHead::get_action(const model::Observation& obs, const CallOptions& call) {
  return std::move(get_actions(std::span(&obs, 1), std::span(&call, 1)).front());
}

std::vector<model::DenoiseResult> ActionHead::get_actions(std::span<const model::Observation> batch,
                                                          std::span<const CallOptions> calls) {
  State& s = *state_;
  const model::ModelConfig& c = s.weights.config;
  require(!batch.empty(), "a batch needs at least one observation");
  require(calls.size() == batch.size(), "{} call options for a batch of {} observations", calls.size(), batch.size());
  // Every sample is checked before any is computed: a batch with one bad sample computes nothing.
  std::vector<int> slots;
  std::vector<model::EulerStart> starts;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    try {
      slots.push_back(embodiment_slot(calls[i].embodiment));
      starts.push_back(call_start(calls[i], c));
    } catch (const Error& e) {
      if (batch.size() == 1) throw;
      fail("{}: {}", sample_name(i), e.what());
    }
  }
  std::vector<model::DenoiseResult> results =
      batch.size() == 1 ? std::vector<model::DenoiseResult>{} : s.backend->run_batch(batch, starts, slots);
  if (batch.size() == 1) results.push_back(s.backend->run(batch.front(), starts.front(), slots.front()));
  s.info.vl_reused_calls += s.backend->reused_vision_language();
  s.report_vision_language();
  for (std::size_t i = 0; i < results.size(); ++i) {
    for (double v : results[i].actions.data)
      if (!std::isfinite(v))
        fail("the {} backend produced non-finite actions{}", s.info.backend, batch.size() == 1 ? "" : " for " + sample_name(i));
    results[i].warnings = starts[i].warnings;
  }
  return results;
}

}  // namespace ditmk
