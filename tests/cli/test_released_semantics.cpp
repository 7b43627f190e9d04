// The released semantics of each GR00T version (docs/model.md): N1.5 attends to padding tokens, every
// inference-relevant config.json setting with a non-default value is either computed (the ref backend
// against tests/torch's independent implementation, the cpu backend against the ref) or refused in
// one line naming the field.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/metrics.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/io/npy.hpp"
#include "fixtures.hpp"
#include "support/cli_runner.hpp"

namespace ditmk::testing {
namespace {

using model::ModelConfig;
using model::Version;
using nlohmann::json;

const std::string kTorchReference = std::string(ditmk::build::source_dir()) + "/tests/torch/groot_ref.py";

bool have_torch() { return run_command("/usr/bin/python3 -c 'import torch'").exit_code == 0; }

// A small fp32 release of `config` with its synthetic observation (masks included) and noise.
struct Release {
  TempDir dir;
  std::string path, observation, noise;
  explicit Release(const ModelConfig& config) : path(dir / "r"), observation(dir / "obs.npz"), noise(dir / "noise.npy") {
    model::write_synthetic_release(config, path, {.dtype = DType::F32, .seed = 5, .progress = false});
    model::write_observation(model::synthetic_observation(config, 6), config, observation);
    io::write_npy(noise, model::synthetic_noise(config, 7).view());
  }
  std::string inputs() const { return " --checkpoint " + path + " --observation " + observation + " --noise " + noise; }
};

ModelConfig tiny(Version v, const std::function<void(ModelConfig&)>& change, int n_blocks = 4) {
  ModelConfig c = model::tiny_config(v, n_blocks);
  change(c);
  c.block_keys = model::block_schedule(c);
  return c;
}

void expect_close(const std::string& ours, const std::string& theirs, double max_rel_l2, double min_cos) {
  for (const char* name : {"actions", "velocities"}) {
    const auto a = npz_values(ours, name), b = npz_values(theirs, name);
    ASSERT_EQ(a.size(), b.size()) << name;
    const Agreement m = agreement(a, b);
    EXPECT_LE(m.rel_l2, max_rel_l2) << name;
    EXPECT_GE(m.cosine, min_cos) << name;
  }
}

// --- settings ditmk computes ---------------------------------------------------------------------

struct Setting {
  std::string name;
  Version version;
  std::function<void(ModelConfig&)> change;
  int n_blocks = 4;
};

class ConfigSetting : public ::testing::TestWithParam<Setting> {};

TEST_P(ConfigSetting, ReferenceMatchesTorchAndCpuMatchesReference) {
  const Setting& s = GetParam();
  const Release r(tiny(s.version, s.change, s.n_blocks));
  TempDir out;
  const std::string args = r.inputs() + " --embodiment 1";
  const CliResult ref = run_ditmk("run --backend ref" + args + " --out " + (out / "ref.npz"));
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  const CliResult cpu = run_ditmk("run --backend cpu --dtype fp32 --threads 2" + args + " --out " + (out / "cpu.npz"));
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  expect_close(out / "cpu.npz", out / "ref.npz", 5e-3, 0.99999);  // DESIGN.md's fp32 gate
  if (!have_torch()) GTEST_SKIP() << "python3-torch missing";
  const CliResult torch = run_command("/usr/bin/python3 " + kTorchReference + args + " --out " + (out / "torch.npz"));
  ASSERT_EQ(torch.exit_code, 0) << torch.err;
  expect_close(out / "ref.npz", out / "torch.npz", 1e-12, 1.0 - 1e-12);
}

const std::vector<Setting> kSettings = {
    {"n15_add_pos_embed_false", Version::n15, [](ModelConfig& c) { c.add_pos_embed = false; }},
    {"n15_use_vlln_false", Version::n15, [](ModelConfig& c) { c.use_vlln = false, c.vl_layers = 0; }},
    {"n15_interleave_false", Version::n15, [](ModelConfig& c) { c.interleave_self_attention = false; }},
    {"n15_norm_eps", Version::n15, [](ModelConfig& c) { c.ff_norm_eps = 1e-2, c.vl_norm_eps = 1e-3; }},
    {"n15_3_steps_500_buckets", Version::n15, [](ModelConfig& c) { c.n_steps = 3, c.timestep_buckets = 500; }},
    {"n15_no_vl_layers", Version::n15, [](ModelConfig& c) { c.vl_layers = 0; }},
    {"n16_plain_dit", Version::n16, [](ModelConfig& c) { c.alternate_vl_dit = false; }},
    {"n16_text_every_block", Version::n16, [](ModelConfig& c) { c.text_every_n_blocks = 1; }},
    {"n16_no_vlln_no_pos_embed", Version::n16, [](ModelConfig& c) { c.use_vlln = false, c.add_pos_embed = false; }},
    {"n17_text_every_3_blocks", Version::n17, [](ModelConfig& c) { c.text_every_n_blocks = 3; }, 8},
    {"n17_state_history_3", Version::n17, [](ModelConfig& c) { c.state_history = 3; }},
    {"n17_no_vl_stack", Version::n17, [](ModelConfig& c) { c.vl_layers = 0; }},
    {"n17_8_steps", Version::n17, [](ModelConfig& c) { c.n_steps = 8; }},
};

INSTANTIATE_TEST_SUITE_P(Released, ConfigSetting, ::testing::ValuesIn(kSettings),
                         [](const auto& info) { return info.param.name; });

// --- settings ditmk refuses ---------------------------------------------------------------------

struct Refusal {
  std::string name;
  Version version;
  std::function<void(json&)> edit;  // of the released config.json of a small release
  std::string message;              // what the one error line must say
};

class ConfigRefusal : public ::testing::TestWithParam<Refusal> {};

TEST_P(ConfigRefusal, OneLineNamingTheFieldAndNoOutput) {
  const Refusal& f = GetParam();
  const Release r(tiny(f.version, [](ModelConfig&) {}));
  json config = json::parse(io::read_text_file(r.path + "/config.json"));
  f.edit(config);
  io::write_file_atomic(r.path + "/config.json", config.dump(1));
  TempDir out;
  const CliResult res = run_ditmk("run --backend ref" + r.inputs() + " --out " + (out / "a.npy"));
  EXPECT_EQ(res.exit_code, 1);
  EXPECT_EQ(res.err_lines(), 1) << res.err;
  EXPECT_NE(res.err.find(f.message), std::string::npos) << res.err;
  EXPECT_FALSE(std::filesystem::exists(out / "a.npy"));
  if (!have_torch()) GTEST_SKIP() << "python3-torch missing";
  const CliResult torch = run_command("/usr/bin/python3 " + kTorchReference + r.inputs() + " --embodiment 1 --out " + (out / "t.npz"));
  EXPECT_EQ(torch.exit_code, 1) << "the independent implementation refuses it too";
}

const std::vector<Refusal> kRefusals = {
    {"n15_positional_embeddings_absent", Version::n15,
     [](json& j) { j["action_head_cfg"]["diffusion_model_cfg"].erase("positional_embeddings"); },
     "field 'action_head_cfg.diffusion_model_cfg.positional_embeddings' = \"sinusoidal\""},
    {"n15_vl_positional_embeddings", Version::n15,
     [](json& j) { j["action_head_cfg"]["vl_self_attention_cfg"]["positional_embeddings"] = "sinusoidal"; },
     "field 'action_head_cfg.vl_self_attention_cfg.positional_embeddings' = \"sinusoidal\""},
    {"n15_norm_type", Version::n15, [](json& j) { j["action_head_cfg"]["diffusion_model_cfg"]["norm_type"] = "layer_norm"; },
     "field 'action_head_cfg.diffusion_model_cfg.norm_type' = \"layer_norm\""},
    {"n15_vl_cfg_missing", Version::n15, [](json& j) { j["action_head_cfg"].erase("vl_self_attention_cfg"); },
     "'action_head_cfg.vl_self_attention_cfg' is missing"},
    {"n15_horizon_missing", Version::n15, [](json& j) { j["action_head_cfg"].erase("action_horizon"); },
     "'action_head_cfg.action_horizon' is missing"},
    {"n15_use_vlln_false_with_a_vl_stack", Version::n15, [](json& j) { j["action_head_cfg"]["use_vlln"] = false; },
     "field 'action_head_cfg.use_vlln' = false removes the VL self-attention stack, but the tensors have 2 layers"},
    {"n15_cross_attention_dim_absent", Version::n15,
     [](json& j) { j["action_head_cfg"]["diffusion_model_cfg"].erase("cross_attention_dim"); },
     "field 'action_head_cfg.diffusion_model_cfg.cross_attention_dim' = 64"},
    {"n16_cross_attention_dim_repeated", Version::n16, [](json& j) { j["diffusion_model_cfg"]["cross_attention_dim"] = 96; },
     "field 'diffusion_model_cfg.cross_attention_dim' = 96"},
    {"n16_cross_attention_dim_null", Version::n16, [](json& j) { j["diffusion_model_cfg"]["cross_attention_dim"] = nullptr; },
     "field 'diffusion_model_cfg.cross_attention_dim' = null"},
    {"n16_activation", Version::n16, [](json& j) { j["diffusion_model_cfg"]["activation_fn"] = "geglu"; },
     "field 'diffusion_model_cfg.activation_fn' = \"geglu\""},
    {"n16_alternate_without_interleave", Version::n16,
     [](json& j) { j["diffusion_model_cfg"]["interleave_self_attention"] = false; },
     "use_alternate_vl_dit needs diffusion_model_cfg.interleave_self_attention"},
    {"n16_state_dim_mismatch", Version::n16, [](json& j) { j["max_state_dim"] = 7; },
     "field 'max_state_dim' = 7, but the tensors have 5"},
    {"n17_strict_action_padding_mask", Version::n17, [](json& j) { j["strict_action_padding_mask"] = true; },
     "field 'strict_action_padding_mask' = true"},
    {"n17_attention_bias", Version::n17, [](json& j) { j["diffusion_model_cfg"]["attention_bias"] = false; },
     "field 'diffusion_model_cfg.attention_bias' = false"},
    {"n17_vl_activation", Version::n17, [](json& j) { j["vl_self_attention_cfg"]["activation_fn"] = "geglu"; },
     "field 'vl_self_attention_cfg.activation_fn' = \"geglu\""},
    {"n17_vl_layers_mismatch", Version::n17, [](json& j) { j["vl_self_attention_cfg"]["num_layers"] = 3; },
     "field 'vl_self_attention_cfg.num_layers' = 3, but the tensors have 2"},
    {"n17_vl_cfg_absent_with_stack", Version::n17, [](json& j) { j.erase("vl_self_attention_cfg"); },
     "field 'vl_self_attention_cfg.num_layers' = 0, but the tensors have 2"},
};

INSTANTIATE_TEST_SUITE_P(Released, ConfigRefusal, ::testing::ValuesIn(kRefusals),
                         [](const auto& info) { return info.param.name; });

// --- N1.5 and padding ---------------------------------------------------------------------------

// The same N1.5 observation with and without padding marks in attention_mask: as released the marks
// change nothing (bit-identical actions on ref and cpu); with --mask-padding they drop those keys.
TEST(N15Padding, AttendedAsReleasedAndDroppedOnlyWithTheOptIn) {
  const ModelConfig config = tiny(Version::n15, [](ModelConfig&) {});
  const Release r(config);
  model::Observation padded = model::synthetic_observation(config, 6);
  for (int j = padded.tokens() - 4; j < padded.tokens(); ++j) padded.attention_mask[j] = 0;
  TempDir out;
  model::write_observation(padded, config, out / "padded.npz");
  const std::string common = " --checkpoint " + r.path + " --noise " + r.noise;
  for (const std::string backend : {"ref", "cpu --dtype fp32 --threads 2", "cpu --dtype bf16 --threads 1"}) {
    auto run = [&](const std::string& obs, const std::string& extra, const std::string& file) {
      const CliResult res = run_ditmk("run --backend " + backend + common + " --observation " + obs + extra + " --out " + (out / file));
      EXPECT_EQ(res.exit_code, 0) << res.err;
      return slurp(out / file);
    };
    const std::string plain = run(r.observation, "", "plain.npy");
    EXPECT_EQ(run(out / "padded.npz", "", "padded.npy"), plain) << backend;
    EXPECT_NE(run(out / "padded.npz", " --mask-padding", "masked.npy"), plain) << backend;
    EXPECT_EQ(run(r.observation, " --mask-padding", "unpadded_masked.npy"), plain) << backend << ": nothing to drop";
  }
}

}  // namespace
}  // namespace ditmk::testing
