// make-checkpoint writes config.json in each release's own form: the field names, nesting and values
// listed, with the reason for each, in tests/model/released_config.json (no more and no fewer), and
// the loader reads those forms, the non-default settings, and the nested form earlier ditmk wrote.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/model/config_json.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/model/weights.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::model {
namespace {

using nlohmann::json;
using testing::TempDir;

const json& released_fields() {
  static const json fields = json::parse(std::ifstream(std::string(ditmk::build::source_dir()) + "/tests/model/released_config.json"));
  return fields;
}

// Every leaf of `j` by its dotted path (objects recurse; arrays and scalars are leaves).
void leaves(const json& j, const std::string& prefix, std::map<std::string, json>& out) {
  if (!j.is_object()) {
    out[prefix] = j;
    return;
  }
  for (const auto& [key, value] : j.items()) leaves(value, prefix.empty() ? key : prefix + "." + key, out);
}

std::map<std::string, json> leaves_of(const json& j) {
  std::map<std::string, json> out;
  leaves(j, "", out);
  return out;
}

json read_config(const std::string& release) {
  return json::parse(io::read_text_file(release + "/config.json"));
}

class ReleasedConfig : public ::testing::TestWithParam<Version> {
 protected:
  std::string name() const { return std::string(version_name(GetParam())); }
  const json& listed() const { return released_fields().at(name()); }
};

TEST_P(ReleasedConfig, FullSizeConfigIsTheReleasedFieldsAndValues) {
  const auto written = leaves_of(config_to_json(default_config(GetParam())));
  for (const auto& [path, entry] : listed().items()) {
    ASSERT_TRUE(written.count(path)) << "missing " << path << " (" << entry["why"].get<std::string>() << ")";
    EXPECT_EQ(written.at(path), entry["value"]) << path;
  }
  for (const auto& [path, value] : written) EXPECT_TRUE(listed().contains(path)) << "not in the released form: " << path;
}

TEST_P(ReleasedConfig, SmallReleaseKeepsTheReleasedNamesAndNesting) {
  TempDir dir;
  write_synthetic_release(tiny_config(GetParam()), dir / "r", {.dtype = DType::F32, .progress = false});
  const auto written = leaves_of(read_config(dir / "r"));
  const json& small_only = released_fields()["small_model_fields"];
  for (const auto& [path, entry] : listed().items()) EXPECT_TRUE(written.count(path)) << "missing " << path;
  for (const auto& [path, value] : written) {
    const bool allowed = small_only.contains(name()) &&
                         std::find(small_only[name()].begin(), small_only[name()].end(), path) != small_only[name()].end();
    EXPECT_TRUE(listed().contains(path) || allowed) << "not in the released form: " << path;
  }
}

TEST_P(ReleasedConfig, NonDefaultSettingsReadBack) {
  ModelConfig c = tiny_config(GetParam(), 6);
  c.add_pos_embed = false;
  c.use_vlln = GetParam() != Version::n17;
  if (GetParam() == Version::n15) c.vl_layers = 0;  // N1.5 without vlln has no VL stack either
  c.n_steps = 7;
  c.timestep_buckets = 500;
  c.ff_norm_eps = 1e-3;
  c.text_every_n_blocks = 3;
  if (GetParam() == Version::n17) c.state_history = 2, c.vl_norm_eps = 1e-2;
  if (GetParam() == Version::n16) c.alternate_vl_dit = false;
  c.block_keys = block_schedule(c);
  TempDir dir;
  write_synthetic_release(c, dir / "r", {.dtype = DType::F32, .progress = false});
  const ModelConfig back = load_weights(dir / "r").config;
  EXPECT_EQ(back.add_pos_embed, c.add_pos_embed);
  EXPECT_EQ(back.use_vlln, c.use_vlln);
  EXPECT_EQ(back.n_steps, 7);
  EXPECT_EQ(back.timestep_buckets, 500);
  EXPECT_EQ(back.ff_norm_eps, 1e-3);
  EXPECT_EQ(back.state_history, c.state_history);
  EXPECT_EQ(back.state_dim, c.state_dim);
  EXPECT_EQ(back.vl_norm_eps, c.vl_norm_eps);
  EXPECT_EQ(back.alternate_vl_dit, c.alternate_vl_dit);
  EXPECT_EQ(back.block_keys, c.block_keys);
}

INSTANTIATE_TEST_SUITE_P(Versions, ReleasedConfig, ::testing::Values(Version::n15, Version::n16, Version::n17),
                         [](const auto& info) { return std::string(version_name(info.param)); });

// The nested form earlier ditmk versions wrote for N1.6/N1.7 (what existing caches may hold).
TEST(ReleasedConfig, EarlierNestedFormOfN17StillLoads) {
  const ModelConfig c = tiny_config(Version::n17, 4);
  TempDir dir;
  write_synthetic_release(c, dir / "r", {.dtype = DType::F32, .progress = false});
  const json dit = {{"num_layers", c.n_blocks},          {"num_attention_heads", c.dims.n_heads},
                    {"attention_head_dim", c.dims.head_dim}, {"output_dim", c.dims.out_dim},
                    {"cross_attention_dim", c.dims.ctx_dim}, {"norm_type", "ada_norm"},
                    {"interleave_self_attention", true}};
  const json head = {{"action_dim", c.action_dim},          {"max_action_dim", c.action_dim},
                     {"action_horizon", c.horizon},         {"max_state_dim", c.state_dim},
                     {"hidden_size", c.dims.hidden},        {"input_embedding_dim", c.dims.width},
                     {"backbone_embedding_dim", c.dims.ctx_dim}, {"max_num_embodiments", c.n_embodiments},
                     {"num_inference_timesteps", 4},        {"num_timestep_buckets", 1000},
                     {"num_target_vision_tokens", 0},       {"use_vlln", true},
                     {"diffusion_model_cfg", dit},
                     {"vl_self_attention_cfg", {{"num_layers", c.vl_layers}, {"num_attention_heads", c.dims.vl_heads},
                                                {"attention_head_dim", c.dims.vl_head_dim}}}};
  io::write_file_atomic(dir / "r/config.json", json{{"model_type", "Gr00tN1d7"}, {"action_head_cfg", head}}.dump());
  const ModelConfig back = load_weights(dir / "r").config;
  EXPECT_EQ(back.version, Version::n17);
  EXPECT_EQ(back.vl_layers, c.vl_layers);
  EXPECT_EQ(back.horizon, c.horizon);
  EXPECT_EQ(back.block_keys, c.block_keys);
}

}  // namespace
}  // namespace ditmk::model
