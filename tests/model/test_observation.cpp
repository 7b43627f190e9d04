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
  const auto text = obs.key_mask(KeySet::text), image = obs.key_mask(KeySet::image), all = obs.key_mask(KeySet::all);
  int n_text = 0, n_image = 0, n_all = 0;
  for (int j = 0; j < obs.tokens(); ++j) {
    n_text += text[j], n_image += image[j], n_all += all[j];
    EXPECT_FALSE(text[j] && image[j]);
  }
  EXPECT_EQ(n_text, 6);
  EXPECT_EQ(n_image, 10);
  EXPECT_EQ(n_all, 16);
  EXPECT_EQ(obs.tokens(), 18);
}

TEST(Observation, LoadsAndValidatesAnNpz) {
  TempDir dir;
  const ModelConfig c = tiny_config(Version::n17, 4);
  const Observation obs = synthetic_observation(c, 2);
  Tensor mask(DType::BOOL, {obs.tokens()}), image(DType::I64, {obs.tokens()}), state(DType::F32, {1, c.state_dim});
  for (int j = 0; j < obs.tokens(); ++j) mask.data<uint8_t>()[j] = obs.attention_mask[j], image.data<int64_t>()[j] = obs.image_mask[j];
  for (int i = 0; i < c.state_dim; ++i) state.data<float>()[i] = obs.state[i];
  io::write_npz(dir / "o.npz", {{"features", obs.features.view()}, {"attention_mask", mask.view()},
                                {"image_mask", image.view()}, {"state", state.view()}});
  const Observation back = load_observation(dir / "o.npz", c);
  EXPECT_EQ(back.attention_mask, obs.attention_mask);
  EXPECT_EQ(back.image_mask, obs.image_mask);
  EXPECT_EQ(back.state, obs.state);
  EXPECT_EQ(back.features.data<float>()[7], obs.features.data<float>()[7]);
}

TEST(Observation, BadInputsAreNamed) {
  TempDir dir;
  const ModelConfig c = tiny_config(Version::n16, 4);
  Observation obs = synthetic_observation(c, 2);
  obs.features.data<float>()[100] = std::numeric_limits<float>::quiet_NaN();
  io::write_npz(dir / "nan.npz", {{"features", obs.features.view()}});
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
  io::write_npz(dir / "empty.npz", {{"features", good.features.view()}, {"image_mask", all_image.view()}});
  const std::string msg = error_of([&] { load_observation(dir / "empty.npz", c); });
  EXPECT_NE(msg.find("'text' key set is empty"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cross block 0"), std::string::npos) << msg;

  Tensor short_state(DType::F32, {3});
  io::write_npz(dir / "state.npz", {{"features", good.features.view()}, {"state", short_state.view()}});
  EXPECT_NE(error_of([&] { load_observation(dir / "state.npz", c); }).find("state: shape [3]"), std::string::npos);
}

}  // namespace
}  // namespace ditmk::model
