#include <gtest/gtest.h>

#include "ditmk/core/error.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/model/synthetic.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::model {
namespace {

using testing::TempDir;

using testing::error_of;

TEST(Observation, KeySetsFollowTheMasks) {
  const ModelConfig c = tiny_config(Version::n16, 4);
  const Observation obs = synthetic_observation(c, 1);
  const auto text = obs.key_mask(KeySet::text, false), image = obs.key_mask(KeySet::image, false);
  const auto all = obs.key_mask(KeySet::all, false), real = obs.key_mask(KeySet::all, true);
  int n_text = 0, n_image = 0, n_all = 0, n_real = 0;
  for (int j = 0; j < obs.tokens(); ++j) {
    n_text += text[j], n_image += image[j], n_all += all[j], n_real += real[j];
    EXPECT_FALSE(text[j] && image[j]);
  }
  EXPECT_EQ(n_text, 6);
  EXPECT_EQ(n_image, 10);
  EXPECT_EQ(n_all, 18) << "as released, `all` attends padding tokens too";
  EXPECT_EQ(n_real, 16) << "mask_padding drops the 2 padding tokens";
  EXPECT_EQ(obs.tokens(), 18);
}

TEST(Observation, StateHistoryFramesAreReadSideBySide) {
  TempDir dir;
  ModelConfig c = tiny_config(Version::n17, 4);
  c.state_history = 3;
  const Observation obs = synthetic_observation(c, 2);
  Tensor frames(DType::F32, {1, 3, c.state_dim}), image(DType::BOOL, {obs.tokens()});
  for (int i = 0; i < 3 * c.state_dim; ++i) frames.data<float>()[i] = float(i) * 0.25f;
  for (int j = 0; j < obs.tokens(); ++j) image.data<uint8_t>()[j] = obs.image_mask[j];
  io::write_npz(dir / "h.npz", {{"features", obs.features}, {"image_mask", image.view()}, {"state", frames.view()}});
  const Observation back = load_observation(dir / "h.npz", c);
  ASSERT_EQ(back.state.size(), std::size_t(3 * c.state_dim));
  EXPECT_EQ(back.state[c.state_dim + 1], float(c.state_dim + 1) * 0.25f);
  const Tensor one_frame(DType::F32, {c.state_dim});
  io::write_npz(dir / "one.npz", {{"features", obs.features}, {"image_mask", image.view()}, {"state", one_frame.view()}});
  const std::string msg = error_of([&] { load_observation(dir / "one.npz", c); });
  EXPECT_NE(msg.find("one.npz:state: shape [5] (expected [3, 5]: state history x state dimension)"), std::string::npos) << msg;
}

TEST(Observation, LoadsAndValidatesAnNpz) {
  TempDir dir;
  const ModelConfig c = tiny_config(Version::n17, 4);
  const Observation obs = synthetic_observation(c, 2);
  Tensor mask(DType::BOOL, {obs.tokens()}), image(DType::I64, {obs.tokens()}), state(DType::F32, {1, c.state_dim});
  for (int j = 0; j < obs.tokens(); ++j) mask.data<uint8_t>()[j] = obs.attention_mask[j], image.data<int64_t>()[j] = obs.image_mask[j];
  for (int i = 0; i < c.state_dim; ++i) state.data<float>()[i] = obs.state[i];
  io::write_npz(dir / "o.npz", {{"features", obs.features}, {"attention_mask", mask.view()},
                                {"image_mask", image.view()}, {"state", state.view()}});
  const Observation back = load_observation(dir / "o.npz", c);
  EXPECT_EQ(back.attention_mask, obs.attention_mask);
  EXPECT_EQ(back.image_mask, obs.image_mask);
  EXPECT_EQ(back.state, obs.state);
  EXPECT_EQ(back.features.at(7), obs.features.at(7));
}

TEST(Observation, BadInputsAreNamed) {
  TempDir dir;
  const ModelConfig c = tiny_config(Version::n16, 4);
  Tensor features = Tensor::from_view(synthetic_observation(c, 2).features);
  features.data<float>()[100] = std::numeric_limits<float>::quiet_NaN();
  io::write_npz(dir / "nan.npz", {{"features", features.view()}});
  EXPECT_NE(error_of([&] { load_observation(dir / "nan.npz", c); }).find("nan.npz:features: non-finite"), std::string::npos);

  const Tensor narrow(DType::F32, {4, 32});
  io::write_npz(dir / "narrow.npz", {{"features", narrow.view()}});
  EXPECT_NE(error_of([&] { load_observation(dir / "narrow.npz", c); }).find("shape [4, 32] (expected [S, 96]"), std::string::npos);

  io::write_npz(dir / "none.npz", {{"state", narrow.view()}});
  EXPECT_NE(error_of([&] { load_observation(dir / "none.npz", c); }).find("missing array 'features'"), std::string::npos);

  // every token an image token: the text key set of block 0 is empty
  const Observation good = synthetic_observation(c, 2);
  Tensor all_image(DType::BOOL, {good.tokens()});
  for (int j = 0; j < good.tokens(); ++j) all_image.data<uint8_t>()[j] = 1;
  io::write_npz(dir / "empty.npz", {{"features", good.features}, {"image_mask", all_image.view()}});
  const std::string msg = error_of([&] { load_observation(dir / "empty.npz", c); });
  EXPECT_NE(msg.find("'text' key set is empty"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cross block 0"), std::string::npos) << msg;

  Tensor short_state(DType::F32, {3});
  io::write_npz(dir / "state.npz", {{"features", good.features}, {"state", short_state.view()}});
  EXPECT_NE(error_of([&] { load_observation(dir / "state.npz", c); }).find("state: shape [3]"), std::string::npos);
}

}  // namespace
}  // namespace ditmk::model
