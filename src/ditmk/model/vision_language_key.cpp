#include "ditmk/model/vision_language_key.hpp"

#include <cstring>

namespace ditmk::model {

VisionLanguageKey::VisionLanguageKey(const Observation& obs)
    : present_(true),
      dtype_(obs.features.dtype),
      shape_(obs.features.shape),
      features_(obs.features.data, obs.features.data + obs.features.nbytes()),
      attention_mask_(obs.attention_mask),
      image_mask_(obs.image_mask) {}

bool VisionLanguageKey::matches(const Observation& obs) const {
  if (!present_ || obs.features.dtype != dtype_ || obs.features.shape != shape_) return false;
  if (obs.attention_mask != attention_mask_ || obs.image_mask != image_mask_) return false;
  return obs.features.nbytes() == features_.size() &&
         std::memcmp(obs.features.data, features_.data(), features_.size()) == 0;
}

}  // namespace ditmk::model
