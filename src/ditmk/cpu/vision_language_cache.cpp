#include "ditmk/cpu/vision_language_cache.hpp"

namespace ditmk::cpu {

const model::CallInputs<float>& VisionLanguageCache::inputs(Engine& engine, const model::Observation& obs) {
  last_reused_ = key_.matches(obs);
  if (!last_reused_) {
    key_ = {};  // a precompute that fails leaves nothing half-kept
    engine.precompute_vision_language(obs, inputs_);
    key_ = model::VisionLanguageKey(obs);
  }
  inputs_.state_token = engine.state_token(obs);
  return inputs_;
}

std::size_t VisionLanguageCache::bytes() const {
  if (key_.empty()) return 0;
  std::size_t n = key_.bytes() + inputs_.vl.data.size() * sizeof(float);
  for (const auto& m : inputs_.cross_k) n += m.data.size() * sizeof(float);
  for (const auto& m : inputs_.cross_v) n += m.data.size() * sizeof(float);
  for (const auto& m : inputs_.key_mask) n += m.size();
  return n;
}

void VisionLanguageCache::clear() {
  key_ = {};
  inputs_ = {};
  last_reused_ = false;
}

}  // namespace ditmk::cpu
