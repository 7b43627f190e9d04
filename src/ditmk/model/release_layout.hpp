#pragma once
// The tensors of a release, as a function of its ModelConfig: names, shapes and the component each
// belongs to. The loader checks a checkpoint against this list and make-checkpoint writes it, so the
// two can never disagree.
#include <string>
#include <vector>

#include "ditmk/core/tensor.hpp"
#include "ditmk/model/config.hpp"

namespace ditmk::model {

enum class Component { dit, vl_self_attention, vlln, state_encoder, action_encoder, action_decoder, position_embedding, future_tokens };
std::string_view component_name(Component component);

struct TensorSpec {
  std::string name;
  Shape shape;
  Component component;
  bool is_bias_or_norm = false;  // 1-D vectors (biases, LayerNorm affine)
};

std::vector<TensorSpec> release_tensors(const ModelConfig& config);

}  // namespace ditmk::model
