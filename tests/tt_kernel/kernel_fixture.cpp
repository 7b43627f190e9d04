#include "kernel_fixture.hpp"

#include <map>
#include <memory>

#include "ditmk/model/denoise.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/ref/action_head.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::tt::host::testing {

namespace {

model::ModelConfig small_config(model::Version version) {
  model::ModelConfig c = model::default_config(version);
  c.n_blocks = version == model::Version::n15 ? 2 : 3;
  c.block_keys = model::block_schedule(c);
  // N1.7 is told from N1.6 by its VL self-attention stack: one layer keeps the checkpoint small
  c.vl_layers = version == model::Version::n17 ? 1 : 0;
  c.n_embodiments = 2;
  c.embodiment_ids = {{"new_embodiment", kEmbodiment}};
  return c;
}

const ditmk::testing::TempDir& root() {
  static const ditmk::testing::TempDir dir;
  return dir;
}

}  // namespace

const std::string& release_dir(model::Version version) {
  static std::map<model::Version, std::string> dirs;
  std::string& dir = dirs[version];
  if (dir.empty()) {
    const std::string path = root() / std::string(model::version_name(version));
    model::SyntheticOptions options;
    options.dtype = DType::BF16;
    options.seed = 4242 + uint64_t(version);
    options.progress = false;
    model::write_synthetic_release(small_config(version), path, options);
    dir = path;
  }
  return dir;
}

model::Observation fixture_observation(const model::ModelConfig& config) {
  model::Observation obs = model::synthetic_observation(config, 77 + uint64_t(config.version));
  // N1.5 as released attends to padding tokens too: the fixture has some, so the `all` key set and
  // its mask cover them (N1.6/N1.7's synthetic observations pad already)
  if (config.version == model::Version::n15)
    for (int j = obs.tokens() - kN15PaddingTokens; j < obs.tokens(); ++j) obs.attention_mask[j] = 0;
  return obs;
}

const KernelModel& kernel_model(model::Version version) {
  static std::map<model::Version, std::unique_ptr<KernelModel>> models;
  auto& slot = models[version];
  if (!slot) {
    auto m = std::make_unique<KernelModel>();
    m->weights = model::load_weights(release_dir(version));
    m->obs = fixture_observation(m->weights.config);
    const Tensor noise = model::synthetic_noise(m->weights.config, 99 + uint64_t(version));
    m->noise = model::noise_matrix(noise.view(), m->weights.config, "noise");
    const ref::ActionHead ref(m->weights, kEmbodiment, 2);
    m->call = model::precompute_call<double>(ref.ops(), m->weights, m->weights.embodiment(kEmbodiment), m->obs);
    Matrix<double> x = m->noise;
    for (int s = 0; s < m->weights.config.n_steps; ++s) {
      Matrix<double> v = ref.velocity(m->call, s, x);
      for (std::size_t i = 0; i < x.data.size(); ++i) x.data[i] += model::euler_dt(m->weights.config) * v.data[i];
      m->reference.velocities.push_back(std::move(v));
    }
    m->reference.actions = std::move(x);
    slot = std::move(m);
  }
  return *slot;
}

}  // namespace ditmk::tt::host::testing
