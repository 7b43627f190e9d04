#include "fixtures.hpp"

#include "ditmk/io/npy.hpp"

namespace ditmk::testing {

const TempDir& fixture_root() {
  static const TempDir root;
  return root;
}

std::vector<double> npz_values(const std::string& path, const std::string& name) {
  const auto arrays = io::read_npz(path);
  const Tensor& t = arrays.at(name);
  std::vector<double> out(t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = t.view().at(i);
  return out;
}

const TinyFixture& tiny_fixture(model::Version version) {
  static std::map<model::Version, TinyFixture> cache;
  auto it = cache.find(version);
  if (it != cache.end()) return it->second;
  const std::string name(model::version_name(version));
  TinyFixture f;
  f.config = model::tiny_config(version, 4);
  f.release = fixture_root() / ("tiny-" + name);
  f.observation = fixture_root() / ("obs-" + name + ".npz");
  f.noise = fixture_root() / ("noise-" + name + ".npy");
  model::write_synthetic_release(f.config, f.release, {.dtype = DType::F32, .seed = 11, .progress = false});
  model::write_observation(model::synthetic_observation(f.config, 4), f.config, f.observation);
  io::write_npy(f.noise, model::synthetic_noise(f.config, 9).view());
  return cache.emplace(version, f).first->second;
}

}  // namespace ditmk::testing
