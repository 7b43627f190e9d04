// The CPU megakernel against the float64 reference: DESIGN.md's gates on the actions and on every
// step's velocity, for every version (masks included), weight format and instruction set (for int8
// that covers the AVX512-VNNI, AVX-VNNI and portable dot products where the CPU has them).
#include <gtest/gtest.h>

#include <map>

#include "ditmk/core/error.hpp"
#include "ditmk/core/metrics.hpp"
#include "ditmk/cpu/engine.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/ref/action_head.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::cpu {
namespace {

using model::Version;

struct Gate {
  double min_cos_actions, min_cos_velocity, max_rel_l2;
};
Gate gate_of(WeightFormat f) {
  switch (f) {
    case WeightFormat::fp32: return {0.99999, 0.99999, 5e-3};
    case WeightFormat::bf16: return {0.9999, 0.9999, 1e-2};
    case WeightFormat::bfp8_b: return {0.998, 0.998, 6e-2};
    case WeightFormat::int8: return {0.999, 0.998, 6e-2};
  }
  return {};
}

// A tiny release per version, its observation (text, image and padding tokens), noise, and the
// reference result, made once per test binary.
struct Case {
  std::unique_ptr<model::Weights> weights;
  model::Observation obs;
  Matrix<double> noise;
  model::DenoiseResult reference;
};

const Case& case_of(Version v) {
  static testing::TempDir dir;
  static std::map<Version, Case> cases;
  if (auto it = cases.find(v); it != cases.end()) return it->second;
  const std::string path = dir / std::string(model::version_name(v));
  const model::ModelConfig config = model::tiny_config(v, 4);
  model::write_synthetic_release(config, path, {.dtype = DType::F32, .seed = 21, .progress = false});
  Case c;
  c.weights = std::make_unique<model::Weights>(model::load_weights(path));
  c.obs = model::synthetic_observation(config, 5);
  c.noise = model::noise_matrix(model::synthetic_noise(config, 6).view(), config, "noise");
  c.reference = ref::ActionHead(*c.weights, 1, 2).run(c.obs, c.noise);
  return cases.emplace(v, std::move(c)).first->second;
}

void expect_within_gate(const model::DenoiseResult& got, const model::DenoiseResult& want, Gate gate) {
  const Agreement a = agreement(got.actions.data, want.actions.data);
  EXPECT_GE(a.cosine, gate.min_cos_actions) << "actions";
  EXPECT_LE(a.rel_l2, gate.max_rel_l2) << "actions";
  ASSERT_EQ(got.velocities.size(), want.velocities.size());
  for (std::size_t s = 0; s < want.velocities.size(); ++s) {
    const Agreement v = agreement(got.velocities[s].data, want.velocities[s].data);
    EXPECT_GE(v.cosine, gate.min_cos_velocity) << "velocity of step " << s;
    EXPECT_LE(v.rel_l2, gate.max_rel_l2) << "velocity of step " << s;
  }
}

struct Param {
  Version version;
  WeightFormat format;
};

class EngineVsReference : public ::testing::TestWithParam<Param> {};

TEST_P(EngineVsReference, MeetsTheAccuracyGateOnActionsAndEveryVelocity) {
  const Case& c = case_of(GetParam().version);
  Engine engine(*c.weights, 1, {.threads = 2, .format = GetParam().format});
  expect_within_gate(engine.run(c.obs, c.noise), c.reference, gate_of(GetParam().format));
}

std::vector<Param> all_params() {
  std::vector<Param> p;
  for (Version v : {Version::n15, Version::n16, Version::n17})
    for (WeightFormat f : {WeightFormat::fp32, WeightFormat::bf16, WeightFormat::bfp8_b, WeightFormat::int8})
      p.push_back({v, f});
  return p;
}

INSTANTIATE_TEST_SUITE_P(All, EngineVsReference, ::testing::ValuesIn(all_params()), [](const auto& info) {
  return std::string(model::version_name(info.param.version)) + "_" + std::string(weight_format_name(info.param.format));
});

class EngineIsa : public ::testing::TestWithParam<Isa> {};

TEST_P(EngineIsa, EveryInstructionSetMeetsTheGates) {
  if (!isa_supported(GetParam())) GTEST_SKIP() << isa_name(GetParam()) << " not supported here";
  const Case& c = case_of(Version::n17);
  for (WeightFormat f : {WeightFormat::bf16, WeightFormat::bfp8_b, WeightFormat::int8}) {
    Engine engine(*c.weights, 1, {.threads = 2, .format = f, .isa = std::string(isa_name(GetParam()))});
    EXPECT_EQ(engine.isa(), GetParam());
    expect_within_gate(engine.run(c.obs, c.noise), c.reference, gate_of(f));
  }
}

INSTANTIATE_TEST_SUITE_P(All, EngineIsa, ::testing::Values(Isa::portable, Isa::avx2, Isa::avx512f, Isa::avx512_bf16),
                         [](const auto& info) { return std::string(isa_name(info.param)); });

TEST(Engine, RepeatedRunsAreBitIdenticalAtOneThreadCount) {
  const Case& c = case_of(Version::n16);
  for (WeightFormat f : {WeightFormat::bf16, WeightFormat::int8}) {
    Engine engine(*c.weights, 1, {.threads = 2, .format = f});
    const auto a = engine.run(c.obs, c.noise);
    const auto b = engine.run(c.obs, c.noise);
    Engine other(*c.weights, 1, {.threads = 2, .format = f});
    const auto d = other.run(c.obs, c.noise);
    EXPECT_EQ(a.actions.data, b.actions.data) << weight_format_name(f);
    EXPECT_EQ(a.actions.data, d.actions.data) << weight_format_name(f);
    for (int s = 0; s < 4; ++s) EXPECT_EQ(a.velocities[s].data, b.velocities[s].data) << weight_format_name(f);
  }
}

TEST(Engine, AnyThreadCountMeetsTheGates) {
  const Case& c = case_of(Version::n15);
  for (int threads : {1, 3, 5}) {
    Engine engine(*c.weights, 1, {.threads = threads, .format = WeightFormat::bf16});
    EXPECT_EQ(engine.threads(), threads);
    expect_within_gate(engine.run(c.obs, c.noise), c.reference, gate_of(WeightFormat::bf16));
  }
}

TEST(Engine, EulerUpdateIsNoisePlusQuarterVelocities) {
  const Case& c = case_of(Version::n15);
  Engine engine(*c.weights, 1, {.threads = 2, .format = WeightFormat::fp32});
  const auto r = engine.run(c.obs, c.noise);
  for (std::size_t i = 0; i < r.actions.data.size(); ++i) {
    double x = c.noise.data[i];
    for (const auto& v : r.velocities) x += 0.25 * double(float(v.data[i]));
    EXPECT_NEAR(r.actions.data[i], x, 1e-5);
  }
}

TEST(Engine, WrongNoiseShapeIsAnError) {
  const Case& c = case_of(Version::n15);
  Engine engine(*c.weights, 1, {.threads = 2});
  EXPECT_THROW(engine.run(c.obs, Matrix<double>(3, 3)), Error);
}

}  // namespace
}  // namespace ditmk::cpu
