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


// The float64 values of array `name` of an .npz.
std::vector<double> npz_values(const std::string& path, const std::string& name);

}  // namespace ditmk::testing
