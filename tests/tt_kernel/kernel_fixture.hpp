#pragma once
// Random released-width checkpoints with few blocks and embodiment slots (the plan only supports
// width 1536), written once per test binary.
#include <string>

#include "ditmk/core/matrix.hpp"
#include "ditmk/model/denoise.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/precompute.hpp"
#include "ditmk/model/weights.hpp"

namespace ditmk::tt::host::testing {

constexpr int kEmbodiment = 1;
constexpr int kN15PaddingTokens = 24;  // of the N1.5 fixture's 300 VL tokens

struct KernelModel {
  model::Weights weights;
  model::Observation obs;
  Matrix<double> noise;
  model::CallInputs<double> call;     // the shared per-call precompute
  model::DenoiseResult reference;     // the float64 reference denoise from it
};

// The release directory of a version's test checkpoint (written on first use).
const std::string& release_dir(model::Version version);

// The observation the fixtures use for a version's checkpoint (N1.5: the last kN15PaddingTokens
// tokens are padding).
model::Observation fixture_observation(const model::ModelConfig& config);

// N1.5: 2 blocks (cross `all`, self); N1.6 / N1.7: 3 blocks (cross text, self, cross image).
const KernelModel& kernel_model(model::Version version);

}  // namespace ditmk::tt::host::testing
