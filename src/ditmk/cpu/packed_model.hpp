#pragma once
// The model as the CPU megakernel streams it, prepared once at load: every matrix packed in the
// chosen weight format (fused QKV for self-attention blocks), biases in fp32, and the weight-only
// 4-step tables (AdaLN rows, output shift/scale, tau biases) computed once in float64.
#include <map>
#include <memory>
#include <vector>

#include "ditmk/cpu/kernels/packed_weights.hpp"
#include "ditmk/model/weights.hpp"

namespace ditmk::cpu {

struct PackedLinear {
  PackedWeights weights;
  std::vector<float> bias;
  int64_t n() const { return weights.n(); }
  int64_t k() const { return weights.k(); }
};

struct PackedBlock {
  bool cross = false;
  PackedLinear qkv;  // self blocks: [q; k; v] fused (N = 3 x inner); cross blocks: q only
  PackedLinear out, ff1, ff2;
};

// One embodiment's encoders and decoder (GR00T's category-specific layers), packed on its first use.
// Its state encoder is packed into PackedModel::precompute with the other per-call weights.
struct PackedEmbodiment {
  model::EmbodimentWeights source;  // the views it was packed from
  PackedLinear enc1, enc2_action, enc3, dec1, dec2;
  std::vector<float> tau_bias;      // [step][D]: W2's tau half applied to tau(t), plus b2
};

struct PackedModel {
  model::ModelConfig config;
  WeightFormat format = WeightFormat::bf16;
  std::vector<PackedBlock> blocks;
  PackedLinear proj_out_2;
  // Weights of the per-call precompute (VL stack, cross K/V, state encoder), found by the address
  // of their source tensor so the shared precompute code can name them by model::Linear.
  std::map<const std::byte*, PackedLinear> precompute;
  std::map<const std::byte*, std::vector<float>> vectors;  // LayerNorm gains / biases in fp32

  std::vector<float> adaln;        // [step][block][scale | shift][D]
  std::vector<float> out_shift_scale;  // [step][shift | scale][D]
  std::vector<float> position_rows;  // [H][D]
  std::vector<float> future_tokens;  // [F][D]

  // Bytes of packed weights one Euler step streams, and its multiply-add count x 2 (with one
  // embodiment's encoders and decoder).
  std::size_t step_weight_bytes(const PackedEmbodiment& embodiment) const;
  double step_flops(const PackedEmbodiment& embodiment) const;
  // Bytes the per-call precompute streams (VL stack, cross K/V, state encoder).
  std::size_t precompute_weight_bytes() const;

  const PackedLinear& packed(const model::Linear& l) const;   // Error when l was not packed
  const float* vector(const TensorView& v) const;
};

class WeightCacheReader;
class WeightCacheWriter;

// A weight cache file the packing takes its matrices and tables from (in the order it would make
// them; WeightCacheMismatch when the file's entries differ), or records them to as it packs them.
struct PackCache {
  WeightCacheReader* from = nullptr;
  WeightCacheWriter* to = nullptr;
};

// Everything but the embodiment-specific layers.
PackedModel pack_model(const model::Weights& weights, WeightFormat format, int threads, PackCache cache = {});
// Embodiment `id`'s layers; its state encoder goes into model.precompute.
PackedEmbodiment pack_embodiment(const model::Weights& weights, int id, PackedModel& model, int threads,
                                 PackCache cache = {});

}  // namespace ditmk::cpu
