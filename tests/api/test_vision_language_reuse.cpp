// A head keeps its last call's vision-language work and reuses it while a call's features and masks
// are the same bytes, or after set_vision_language for calls that pass only a state: every call's
// actions and velocities are the bytes of a head that recomputes everything, for each version and
// weight format, across changes of state and embodiment; other features or masks are recomputed.
#include <gtest/gtest.h>

#include "ditmk/api/ditmk.hpp"
#include "ditmk/model/synthetic.hpp"
#include "support/error_of.hpp"
#include "support/same_result.hpp"
#include "support/temp_dir.hpp"

namespace ditmk {
namespace {

using testing::expect_same_bytes;

// The arrays of an observation's VL inputs (masks as bool arrays held by `masks`).
model::ObservationArrays vision_language_arrays(const model::Observation& obs, std::vector<Tensor>& masks) {
  for (const auto* mask : {&obs.attention_mask, &obs.image_mask}) {
    Tensor t(DType::BOOL, {int64_t(mask->size())});
    std::copy(mask->begin(), mask->end(), t.data<uint8_t>());
    masks.push_back(std::move(t));
  }
  return {{"features", obs.features}, {"attention_mask", masks[masks.size() - 2].view()},
          {"image_mask", masks.back().view()}};
}

model::Observation with_state(model::Observation obs, float shift) {
  for (std::size_t i = 0; i < obs.state.size(); ++i) obs.state[i] = 0.3f * float(i % 5) - 0.5f + shift;
  return obs;
}

struct Case {
  model::Version version;
  std::string dtype;
};

class VisionLanguageReuse : public ::testing::TestWithParam<Case> {};

TEST_P(VisionLanguageReuse, ReusedCallsGiveTheBytesOfFullCalls) {
  const Case c = GetParam();
  testing::TempDir dir;
  const model::ModelConfig config = model::tiny_config(c.version);
  model::write_synthetic_release(config, dir / "r", {.dtype = DType::BF16, .seed = 5, .progress = false});
  OpenOptions options{.checkpoint = dir / "r", .backend = "cpu", .dtype = c.dtype, .threads = 2};
  ActionHead reusing(options);
  options.reuse_vision_language = false;
  ActionHead recomputing(options);
  EXPECT_EQ(reusing.info().vl_cache_bytes, 0u);

  const model::Observation a = model::synthetic_observation(config, 1), b = model::synthetic_observation(config, 2);
  model::Observation a_masked = a;  // a's features, its last token's attention mask flipped
  a_masked.attention_mask.back() ^= 1;
  CallOptions first{.embodiment = "1", .seed = 3}, second{.embodiment = "2", .seed = 4};
  struct Call {
    std::string what;
    model::Observation obs;
    CallOptions options;
    bool reused;
  };
  const std::vector<Call> calls = {
      {"a", with_state(a, 0), first, false},
      {"a, another state and embodiment", with_state(a, 0.7f), second, true},
      {"a, the first state again", with_state(a, 0), first, true},
      {"b", with_state(b, 0), first, false},
      {"a after b", with_state(a, 0.1f), second, false},
      {"a with another attention mask", with_state(a_masked, 0.1f), second, false},
      {"a with that mask again", with_state(a_masked, 0.2f), first, true},
  };
  int64_t reused = 0;
  for (const Call& call : calls) {
    expect_same_bytes(reusing.get_action(call.obs, call.options), recomputing.get_action(call.obs, call.options), call.what);
    reused += call.reused;
    EXPECT_EQ(reusing.info().vl_reused_calls, reused) << call.what;
  }
  EXPECT_GT(reusing.info().vl_cache_bytes, a.features.nbytes());
  EXPECT_EQ(recomputing.info().vl_cache_bytes, 0u);
  EXPECT_EQ(recomputing.info().vl_reused_calls, 0);

  // Named once: calls with a state only give the bytes of full calls with those features.
  std::vector<Tensor> masks;
  reusing.set_vision_language(vision_language_arrays(b, masks));
  for (const Call& call : {calls[0], calls[1]}) {
    const model::Observation full = [&] {
      model::Observation o = with_state(b, 0);
      o.state = call.obs.state;
      return o;
    }();
    const Shape shape = config.state_history > 1 ? Shape{config.state_history, config.state_dim} : Shape{config.state_dim};
    const TensorView state{DType::F32, shape, reinterpret_cast<const std::byte*>(full.state.data())};
    const model::Observation state_only = reusing.observation({{"state", state}});
    expect_same_bytes(reusing.get_action(state_only, call.options), recomputing.get_action(full, call.options),
                      "set_vision_language(b), " + call.what);
  }
  EXPECT_EQ(reusing.info().vl_reused_calls, reused + 1) << "the first call after set recomputes (the kept work was a's)";
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(model::version_name(info.param.version)) + "_" + info.param.dtype;
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (model::Version v : {model::Version::n15, model::Version::n16, model::Version::n17})
    for (const char* dtype : {"fp32", "bf16", "bfp8_b", "int8"}) all.push_back({v, dtype});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Cpu, VisionLanguageReuse, ::testing::ValuesIn(cases()), case_name);

TEST(VisionLanguage, SetOnceWorksOnTheReferenceAndRecomputes) {
  testing::TempDir dir;
  const model::ModelConfig config = model::tiny_config(model::Version::n16);
  model::write_synthetic_release(config, dir / "r", {.dtype = DType::BF16, .seed = 5, .progress = false});
  ActionHead head({.checkpoint = dir / "r", .backend = "ref", .threads = 2});
  const model::Observation obs = model::synthetic_observation(config, 1);
  std::vector<Tensor> masks;
  head.set_vision_language(vision_language_arrays(obs, masks));
  EXPECT_TRUE(head.has_vision_language());
  const auto want = head.get_action(obs, {.seed = 2});
  const TensorView state{DType::F32, {int64_t(obs.state.size())}, reinterpret_cast<const std::byte*>(obs.state.data())};
  expect_same_bytes(head.get_action(head.observation({{"state", state}}), {.seed = 2}), want, "ref, set once");
  EXPECT_EQ(head.info().vl_reused_calls, 0) << "the reference recomputes";
  EXPECT_GT(head.info().vl_cache_bytes, 0u) << "the set features are kept";
}

TEST(VisionLanguage, ACallWithoutFeaturesNeedsThemSet) {
  testing::TempDir dir;
  const model::ModelConfig config = model::tiny_config(model::Version::n15);
  model::write_synthetic_release(config, dir / "r", {.dtype = DType::BF16, .seed = 5, .progress = false});
  ActionHead head({.checkpoint = dir / "r", .threads = 1});
  const std::string missing = testing::error_of([&] { head.observation({}); });
  EXPECT_EQ(missing, "features: missing, and no vision-language inputs were set (set_vision_language)");
  const model::Observation obs = model::synthetic_observation(config, 1);
  std::vector<Tensor> masks;
  const model::ObservationArrays arrays = vision_language_arrays(obs, masks);
  EXPECT_NE(testing::error_of([&] { head.observation({{"attention_mask", arrays.at("attention_mask")}}); })
                .find("attention_mask: given without features"),
            std::string::npos);
  head.set_vision_language(arrays);
  EXPECT_EQ(testing::error_of([&] { head.observation({}); }), "");
  head.clear_vision_language();
  EXPECT_EQ(testing::error_of([&] { head.observation({}); }), missing);
  EXPECT_EQ(head.info().vl_cache_bytes, 0u);
  model::ObservationArrays with_state = arrays;
  with_state["state"] = arrays.at("features");
  EXPECT_NE(testing::error_of([&] { head.set_vision_language(with_state); }).find("state: not a vision-language input"),
            std::string::npos);
}

}  // namespace
}  // namespace ditmk
