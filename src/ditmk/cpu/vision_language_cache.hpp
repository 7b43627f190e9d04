#pragma once
// The vision-language work of the last call, kept for the next: GR00T's vision-language model runs
// slower than its action head, and robots re-plan from the last features with a new state. When a
// call's features and masks are the same bytes as the kept ones (model::VisionLanguageKey), the VL
// tokens, cross K/V and key masks are reused and only the state token is computed; the inputs are the
// bytes a full precompute gives, so the actions are bit-identical. One entry: a call with other
// features replaces it.
#include <cstddef>

#include "ditmk/cpu/engine.hpp"
#include "ditmk/model/vision_language_key.hpp"

namespace ditmk::cpu {

class VisionLanguageCache {
 public:
  // This call's inputs on `engine` (its current embodiment): the kept VL work when obs matches it,
  // else computed and kept. Valid until the next call.
  const model::CallInputs<float>& inputs(Engine& engine, const model::Observation& obs);

  bool last_reused() const { return last_reused_; }
  // What is kept: the key's features and masks, the VL tokens and every cross block's K/V.
  std::size_t bytes() const;
  void clear();

 private:
  model::VisionLanguageKey key_;
  model::CallInputs<float> inputs_;
  bool last_reused_ = false;
};

}  // namespace ditmk::cpu
