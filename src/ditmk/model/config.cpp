#include "ditmk/model/config.hpp"

#include "ditmk/core/error.hpp"

namespace ditmk::model {

std::string_view version_name(Version version) {
  switch (version) {
    case Version::n15: return "n15";
    case Version::n16: return "n16";
    case Version::n17: return "n17";
  }
  return "?";
}

Version parse_version(std::string_view name) {
  if (name == "n15" || name == "n1.5") return Version::n15;
  if (name == "n16" || name == "n1.6") return Version::n16;
  if (name == "n17" || name == "n1.7") return Version::n17;
  fail("unknown GR00T version '{}' (expected n15, n16 or n17)", name);
}

std::string_view key_set_name(KeySet keys) {
  switch (keys) {
    case KeySet::self_attn: return "self";
    case KeySet::all: return "all";
    case KeySet::text: return "text";
    case KeySet::image: return "image";
  }
  return "?";
}

// N1.5's DiT and N1.6/N1.7's plain DiT attend to every VL token; the alternating DiT of N1.6/N1.7
// attends to text keys in blocks idx % (2n) == 0 and to image keys in the other cross blocks.
std::vector<KeySet> block_schedule(const ModelConfig& c) {
  std::vector<KeySet> keys(c.n_blocks, KeySet::self_attn);
  const bool alternating = c.version != Version::n15 && c.alternate_vl_dit;
  for (int i = 0; i < c.n_blocks; ++i) {
    if (c.interleave_self_attention && i % 2 == 1) continue;
    if (!alternating) keys[i] = KeySet::all;
    else keys[i] = i % (2 * c.text_every_n_blocks) == 0 ? KeySet::text : KeySet::image;
  }
  return keys;
}

std::string default_embodiment(const ModelConfig& config) {
  const auto it = config.embodiment_ids.find("new_embodiment");
  return it != config.embodiment_ids.end() && it->second < config.n_embodiments ? "new_embodiment" : "0";
}

ModelConfig default_config(Version version) {
  ModelConfig c;
  c.version = version;
  switch (version) {
    case Version::n15:
      c.n_blocks = 16, c.vl_layers = 4, c.n_future = 32, c.action_dim = 32, c.state_dim = 64, c.horizon = 16;
      c.embodiment_ids = {{"gr1", 24}, {"oxe_droid", 17}, {"agibot_genie1", 26}, {"new_embodiment", 31}};
      break;
    case Version::n16:
      c.n_blocks = 32, c.vl_layers = 0, c.n_future = 0, c.action_dim = 128, c.state_dim = 128, c.horizon = 16;
      c.embodiment_ids = {{"oxe_google", 0}, {"oxe_widowx", 1}, {"oxe_droid", 16}, {"new_embodiment", 10}};
      break;
    case Version::n17:
      c.n_blocks = 32, c.vl_layers = 4, c.n_future = 0, c.action_dim = 132, c.state_dim = 132, c.horizon = 40;
      c.embodiment_ids = {
          {"simpler_env_google", 0}, {"simpler_env_widowx", 1}, {"libero_sim", 2}, {"new_embodiment", 10}};
      break;
  }
  c.block_keys = block_schedule(c);
  return c;
}

}  // namespace ditmk::model
