#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/io/safetensors.hpp"
#include "ditmk/model/release_layout.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/model/weights.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::model {
namespace {

using testing::TempDir;

int64_t count(const ModelConfig& c, std::optional<Component> only) {
  int64_t n = 0;
  for (const auto& t : release_tensors(c))
    if (!only || t.component == *only) n += shape_numel(t.shape);
  return n;
}

TEST(ReleaseLayout, ParameterCountsMatchTheReleasedModels) {
  const ModelConfig n15 = default_config(Version::n15);
  EXPECT_EQ(release_tensors(n15).size(), 314u);
  EXPECT_EQ(count(n15, Component::dit), 550'386'688);
  EXPECT_EQ(count(n15, Component::vl_self_attention), 201'433'088);
  EXPECT_EQ(count(n15, std::nullopt), 1'068'806'144);
  EXPECT_EQ(count(default_config(Version::n16), Component::dit), 1'091'722'240);
  EXPECT_EQ(release_tensors(default_config(Version::n16)).size(), 473u);
  EXPECT_EQ(release_tensors(default_config(Version::n17)).size(), 537u);
}

TEST(ReleaseLayout, N15NamesAndShapesMatchTheReleaseKeyList) {
  std::ifstream keys(std::string(ditmk::build::source_dir()) + "/../shared/docs/keys_n15.txt");
  if (!keys) GTEST_SKIP() << "keys_n15.txt not beside the project";
  std::map<std::string, std::string> expected;
  std::string name, shape;
  while (keys >> name && std::getline(keys, shape)) expected[name] = shape.substr(shape.find('('));
  for (const auto& t : release_tensors(default_config(Version::n15))) {
    ASSERT_TRUE(expected.count(t.name)) << t.name;
    std::string s = "(";
    for (std::size_t i = 0; i < t.shape.size(); ++i) s += std::to_string(t.shape[i]) + (i + 1 < t.shape.size() ? ", " : "");
    s += t.shape.size() == 1 ? ",)" : ")";
    EXPECT_EQ(expected[t.name], s) << t.name;
  }
}

class TinyRelease : public ::testing::TestWithParam<Version> {};

TEST_P(TinyRelease, LoaderDetectsWhatWasWritten) {
  TempDir dir;
  const ModelConfig written = tiny_config(GetParam(), 6);
  write_synthetic_release(written, dir / "r", {.dtype = DType::BF16, .seed = 3, .shard_bytes = 200'000, .progress = false});
  int shards = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "r")) shards += entry.path().extension() == ".safetensors";
  EXPECT_GE(shards, 2);
  const Weights w = load_weights(dir / "r");
  const ModelConfig& c = w.config;
  EXPECT_EQ(c.version, GetParam());
  EXPECT_EQ(c.n_blocks, 6);
  EXPECT_EQ(c.block_keys, written.block_keys);
  EXPECT_EQ(c.vl_layers, written.vl_layers);
  EXPECT_EQ(c.n_future, written.n_future);
  EXPECT_EQ(c.action_dim, 6);
  EXPECT_EQ(c.state_dim, 5);
  EXPECT_EQ(c.horizon, 8);
  EXPECT_EQ(c.dims.n_heads, 4);
  EXPECT_EQ(c.dims.head_dim, 16);
  EXPECT_EQ(c.dims.ctx_dim, 96);
  EXPECT_EQ(w.resolve_embodiment("tiny_robot"), 1);
  EXPECT_EQ(w.resolve_embodiment("2"), 2);
  EXPECT_THROW(w.resolve_embodiment("3"), Error);
  try {
    w.resolve_embodiment("gr1");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("embodiment 'gr1': unknown"), std::string::npos);
  }
  // the embodiment slice points at slot e of the category weights
  const EmbodimentWeights e = w.embodiment(2);
  EXPECT_EQ(e.dec2.weight.shape, (Shape{48, 6}));
  EXPECT_EQ(e.dec2.weight.at(0), w.dec2.W.at(2 * 48 * 6));
}

TEST_P(TinyRelease, SameSeedSameBytesOtherSeedOtherValues) {
  TempDir dir;
  const ModelConfig c = tiny_config(GetParam(), 2);
  write_synthetic_release(c, dir / "a", {.seed = 5, .progress = false});
  write_synthetic_release(c, dir / "b", {.seed = 5, .progress = false});
  write_synthetic_release(c, dir / "c", {.seed = 6, .progress = false});
  const Weights a = load_weights(dir / "a"), b = load_weights(dir / "b"), d = load_weights(dir / "c");
  const TensorView va = a.blocks[1].ff1.weight, vb = b.blocks[1].ff1.weight, vd = d.blocks[1].ff1.weight;
  EXPECT_EQ(std::memcmp(va.data, vb.data, va.nbytes()), 0);
  EXPECT_NE(std::memcmp(va.data, vd.data, va.nbytes()), 0);
}

INSTANTIATE_TEST_SUITE_P(Versions, TinyRelease, ::testing::Values(Version::n15, Version::n16, Version::n17),
                         [](const auto& info) { return std::string(version_name(info.param)); });

std::string load_error(const std::string& dir) {
  try {
    load_weights(dir);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Rewrites one shard of a tiny release with `edit` applied to its tensor list.
void rewrite_shard(const std::string& dir, const std::function<void(std::vector<std::pair<std::string, Tensor>>&)>& edit) {
  const std::string shard = dir + "/model-00001-of-00001.safetensors";
  std::vector<std::pair<std::string, Tensor>> tensors;
  {
    const io::SafetensorsFile f(shard);
    for (const auto& [name, entry] : f.entries()) tensors.emplace_back(name, Tensor::from_view(f.view(name)));
  }
  edit(tensors);
  std::vector<std::pair<std::string, TensorView>> views;
  for (auto& [n, t] : tensors) views.emplace_back(n, t.view());
  std::filesystem::remove(shard);
  io::write_safetensors(shard, views);
  nlohmann::json map = nlohmann::json::object();
  for (auto& [n, t] : tensors) map[n] = "model-00001-of-00001.safetensors";
  std::ofstream(dir + "/model.safetensors.index.json") << nlohmann::json{{"weight_map", map}}.dump();
}

TEST(LoadErrors, MissingWrongShapeAndWrongDtypeTensorsAreNamed) {
  TempDir dir;
  const ModelConfig c = tiny_config(Version::n15, 2);
  const std::string q = "action_head.model.transformer_blocks.1.attn1.to_q.weight";
  write_synthetic_release(c, dir / "m", {.progress = false});
  rewrite_shard(dir / "m", [&](auto& t) { std::erase_if(t, [&](auto& p) { return p.first == q; }); });
  EXPECT_NE(load_error(dir / "m").find("missing tensor '" + q + "'"), std::string::npos) << load_error(dir / "m");

  write_synthetic_release(c, dir / "s", {.progress = false});
  rewrite_shard(dir / "s", [&](auto& t) {
    for (auto& [n, v] : t)
      if (n == q) v = Tensor(DType::BF16, {64, 32});
  });
  EXPECT_NE(load_error(dir / "s").find("'" + q + "' has shape [64, 32], expected [64, 64]"), std::string::npos)
      << load_error(dir / "s");

  write_synthetic_release(c, dir / "d", {.progress = false});
  rewrite_shard(dir / "d", [&](auto& t) {
    for (auto& [n, v] : t)
      if (n == q) v = Tensor(DType::I64, {64, 64});
  });
  EXPECT_NE(load_error(dir / "d").find("has dtype I64"), std::string::npos) << load_error(dir / "d");
}

TEST(LoadErrors, ConfigVersionContradictingTheTensorsIsAnError) {
  TempDir dir;
  write_synthetic_release(tiny_config(Version::n16, 2), dir / "m", {.progress = false});
  std::ofstream(dir / "m/config.json") << R"({"model_type": "gr00t_n1_5"})";
  EXPECT_NE(load_error(dir / "m").find("config.json says n15"), std::string::npos) << load_error(dir / "m");
}

}  // namespace
}  // namespace ditmk::model
