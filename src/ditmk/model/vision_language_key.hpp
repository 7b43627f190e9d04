#pragma once
// What a call's vision-language work depends on, kept as bytes: the features (dtype, shape, every
// byte) and the attention and image masks. Two observations with equal keys give the same VL tokens,
// cross K/V and key masks bit for bit (the head's mask_padding is fixed at open), so a head may keep
// that work and reuse it. Comparing is a memcmp of the features (~1 MB for 300 bf16 tokens), small
// against the work it saves.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ditmk/core/tensor.hpp"
#include "ditmk/model/observation.hpp"

namespace ditmk::model {

class VisionLanguageKey {
 public:
  VisionLanguageKey() = default;  // empty: matches nothing
  explicit VisionLanguageKey(const Observation& obs);

  bool empty() const { return !present_; }
  bool matches(const Observation& obs) const;
  std::size_t bytes() const { return features_.size() + attention_mask_.size() + image_mask_.size(); }

 private:
  bool present_ = false;
  DType dtype_ = DType::F32;
  Shape shape_;
  std::vector<std::byte> features_;
  std::vector<uint8_t> attention_mask_, image_mask_;
};

}  // namespace ditmk::model
