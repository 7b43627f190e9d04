// A batch of B samples is one call (cpu: one program streaming each weight once per step for all of
// them), and each sample's actions and velocities are the bytes of its own call on the same head:
// for B = 1, 3 and 8, mixed embodiments, VL lengths, seeds and given noise, real-time chunking (N1.7),
// on the cpu backend in every weight format and on ref. Bad batches are refused whole, naming the
// array and the sample.
#include <gtest/gtest.h>

#include "ditmk/api/ditmk.hpp"
#include "ditmk/model/synthetic.hpp"
#include "support/error_of.hpp"
#include "support/same_result.hpp"
#include "support/temp_dir.hpp"

namespace ditmk {
namespace {

using testing::expect_same_bytes;

// The synthetic observation of `seed` with its last `drop` tokens cut off (another VL length).
model::Observation shortened(const model::ModelConfig& config, uint64_t seed, int drop) {
  model::Observation obs = model::synthetic_observation(config, seed);
  obs.features.shape[0] -= drop;
  obs.attention_mask.resize(obs.attention_mask.size() - std::size_t(drop));
  obs.image_mask.resize(obs.image_mask.size() - std::size_t(drop));
  model::validate_observation(obs, config, "shortened");
  return obs;
}

struct Case {
  model::Version version;
  std::string backend, dtype;
};

class Batch : public ::testing::TestWithParam<Case> {};

TEST_P(Batch, EverySampleIsTheBytesOfItsOwnCall) {
  const Case c = GetParam();
  testing::TempDir dir;
  const model::ModelConfig config = model::tiny_config(c.version);
  model::write_synthetic_release(config, dir / "r", {.dtype = DType::BF16, .seed = 7, .progress = false});
  ActionHead head({.checkpoint = dir / "r", .backend = c.backend, .dtype = c.dtype, .threads = 2});

  // 8 samples: three embodiments in runs and alone, three VL lengths, one VL repeated, seeds and
  // given noise, and with N1.7 a previous chunk on some samples.
  std::vector<model::Observation> observations;
  std::vector<CallOptions> calls;
  const Tensor noise = model::synthetic_noise(config, 99);
  Tensor previous(DType::F32, {config.horizon, config.action_dim});
  for (int64_t i = 0; i < previous.numel(); ++i) previous.data<float>()[i] = 0.01f * float(i % 37) - 0.2f;
  const char* embodiments[] = {"1", "1", "2", "", "2", "2", "1", ""};
  for (int i = 0; i < 8; ++i) {
    observations.push_back(i == 5 ? observations[1] : shortened(config, uint64_t(10 + i), (i % 3) * 2));
    CallOptions call{.embodiment = embodiments[i], .seed = uint64_t(i)};
    if (i == 4) call.noise = noise.view();
    if (c.version == model::Version::n17 && (i == 2 || i == 6)) {
      call.previous_actions = previous.view();
      call.rtc = model::RealTimeChunking{config.horizon, 4, 1, 2.0};
    }
    calls.push_back(call);
  }
  for (const std::size_t b : {std::size_t(1), std::size_t(3), std::size_t(8)}) {
    const std::vector<model::DenoiseResult> batched =
        head.get_actions(std::span(observations).first(b), std::span(calls).first(b));
    ASSERT_EQ(batched.size(), b);
    for (std::size_t i = 0; i < b; ++i)
      expect_same_bytes(batched[i], head.get_action(observations[i], calls[i]),
                        "B = " + std::to_string(b) + ", sample " + std::to_string(i));
  }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(model::version_name(info.param.version)) + "_" + info.param.backend + "_" + info.param.dtype;
}

INSTANTIATE_TEST_SUITE_P(All, Batch,
                         ::testing::Values(Case{model::Version::n15, "cpu", "bf16"}, Case{model::Version::n15, "cpu", "bfp8_b"},
                                           Case{model::Version::n15, "cpu", "fp32"}, Case{model::Version::n15, "cpu", "int8"},
                                           Case{model::Version::n17, "cpu", "bf16"}, Case{model::Version::n17, "cpu", "int8"},
                                           Case{model::Version::n16, "cpu", "bf16"}, Case{model::Version::n15, "ref", "bf16"},
                                           Case{model::Version::n17, "ref", "bf16"}),
                         case_name);

class BatchRefusal : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    model::write_synthetic_release(model::tiny_config(model::Version::n15), *dir_ / "r",
                                   {.dtype = DType::BF16, .seed = 7, .progress = false});
    head_ = new ActionHead({.checkpoint = *dir_ / "r", .backend = "cpu", .threads = 2});
  }
  static void TearDownTestSuite() { delete head_, delete dir_; }
  static testing::TempDir* dir_;
  static ActionHead* head_;
};
testing::TempDir* BatchRefusal::dir_ = nullptr;
ActionHead* BatchRefusal::head_ = nullptr;

TEST_F(BatchRefusal, BatchedArraysAreSplitAndCheckedPerSample) {
  const model::ModelConfig& config = head_->weights().config;
  const model::Observation one = model::synthetic_observation(config, 1);
  const int64_t S = one.tokens(), ctx = config.dims.ctx_dim;
  Tensor features(one.features.dtype, {3, S, ctx});
  for (int i = 0; i < 3; ++i)
    std::copy(one.features.data, one.features.data + one.features.nbytes(), features.bytes() + i * one.features.nbytes());
  Tensor state(DType::F32, {3, config.state_dim});
  const std::vector<model::Observation> batch = head_->observations({{"features", features.view()}, {"state", state.view()}}, "obs.npz");
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch[2].tokens(), S);

  Tensor two_states(DType::F32, {2, config.state_dim});
  EXPECT_EQ(testing::error_of([&] { head_->observations({{"features", features.view()}, {"state", two_states.view()}}, "obs.npz"); }),
            "obs.npz:state: a batch of 2, but features has a batch of 3");
  state.data<float>()[config.state_dim + 1] = std::nanf("");
  const std::string bad = testing::error_of([&] { head_->observations({{"features", features.view()}, {"state", state.view()}}, "obs.npz"); });
  EXPECT_EQ(bad.rfind("obs.npz:sample 1:state", 0), 0u) << bad;
}

TEST_F(BatchRefusal, OneBadSampleRefusesTheBatchBeforeAnyWork) {
  const model::ModelConfig& config = head_->weights().config;
  const std::vector<model::Observation> batch = {model::synthetic_observation(config, 1), model::synthetic_observation(config, 2),
                                                 model::synthetic_observation(config, 3)};
  Tensor bad_noise = model::synthetic_noise(config, 1);
  bad_noise.data<float>()[3] = std::nanf("");
  std::vector<CallOptions> calls(3);
  calls[2].noise = bad_noise.view();
  calls[2].noise_name = "noise.npy";
  const int64_t reused_before = head_->info().vl_reused_calls;
  const std::string error = testing::error_of([&] { head_->get_actions(batch, calls); });
  EXPECT_EQ(error.rfind("sample 2: noise.npy", 0), 0u) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_EQ(head_->info().vl_reused_calls, reused_before);
  calls[2] = {};
  calls[1].embodiment = "no_such_robot";
  const std::string embodiment = testing::error_of([&] { head_->get_actions(batch, calls); });
  EXPECT_EQ(embodiment.rfind("sample 1: ", 0), 0u) << embodiment;
  EXPECT_EQ(testing::error_of([&] { head_->get_actions(batch, std::span(calls).first(2)); }),
            "2 call options for a batch of 3 observations");
}

}  // namespace
}  // namespace ditmk
