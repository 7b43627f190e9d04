#pragma once
// Small releases and observations shared by the CLI tests, written once per test binary.
#include <map>
#include <string>

#include "ditmk/model/synthetic.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::testing {

// A tiny release of each version (4 blocks), its synthetic observation (with masks) and noise.
struct TinyFixture {
  std::string release, observation, noise;
  model::ModelConfig config;
};
const TinyFixture& tiny_fixture(model::Version version);
const TempDir& fixture_root();

// Writes obs as an .npz with features, attention_mask, image_mask and state.
void write_observation(const model::Observation& obs, const std::string& path);

}  // namespace ditmk::testing
