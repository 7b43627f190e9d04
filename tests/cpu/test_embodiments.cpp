// One engine serves every embodiment of a release: switching packs the new embodiment's layers once
// and gives the bytes a fresh engine of that embodiment gives.
#include <gtest/gtest.h>

#include "ditmk/cpu/engine.hpp"
#include "ditmk/model/synthetic.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::cpu {
namespace {

TEST(EngineEmbodiments, SwitchingGivesTheBytesOfAFreshEngine) {
  testing::TempDir dir;
  const model::ModelConfig config = model::tiny_config(model::Version::n16, 4);
  model::write_synthetic_release(config, dir / "r", {.dtype = DType::BF16, .seed = 3, .progress = false});
  const model::Weights w = model::load_weights(dir / "r");
  const model::Observation obs = model::synthetic_observation(config, 1);
  const Matrix<double> noise = model::noise_matrix(model::synthetic_noise(config, 2).view(), config, "noise");
  const EngineOptions options{.threads = 2, .format = WeightFormat::bf16};
  Engine engine(w, 1, options);
  const auto first = engine.run(obs, noise);
  engine.use_embodiment(2);
  EXPECT_EQ(engine.embodiment(), 2);
  const auto second = engine.run(obs, noise);
  EXPECT_EQ(second.actions.data, Engine(w, 2, options).run(obs, noise).actions.data);
  EXPECT_NE(second.actions.data, first.actions.data);
  engine.use_embodiment(1);
  EXPECT_EQ(engine.run(obs, noise).actions.data, first.actions.data);
  EXPECT_NE(testing::error_of([&] { engine.use_embodiment(3); }).find("embodiment 3 outside 0..2"), std::string::npos);
  EXPECT_EQ(engine.run(obs, noise).actions.data, first.actions.data) << "a refused switch keeps the embodiment";
}

}  // namespace
}  // namespace ditmk::cpu
