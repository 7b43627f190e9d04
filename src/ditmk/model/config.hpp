#pragma once
// What a GR00T action head is: version, dimensions, block schedule, the settings of its config.json
// that change what inference computes, and embodiments. Read from a release's config.json and
// checked against its tensors (model/weights.hpp), or made from the version defaults
// (make-checkpoint).
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ditmk::model {

enum class Version { n15, n16, n17 };
std::string_view version_name(Version version);         // "n15"
Version parse_version(std::string_view name);           // throws Error on anything else

// Which keys a DiT block attends to. `self_attn` blocks attend to their own rows; cross blocks attend
// to the VL tokens: `all` of them (N1.5, and the plain DiT of N1.6/N1.7), or the text / image tokens
// (N1.6/N1.7's alternating DiT).
enum class KeySet { self_attn, all, text, image };
std::string_view key_set_name(KeySet keys);

// Widths shared by every released version; config.json may override them (small test models do).
struct Dims {
  int width = 1536;         // D, the DiT residual width
  int n_heads = 32;
  int head_dim = 48;
  int ff_dim = 6144;
  int ctx_dim = 2048;       // VL feature width (cross-attention context)
  int out_dim = 1024;       // DiT output width
  int hidden = 1024;        // state encoder / action decoder hidden width
  int temb_channels = 256;  // timestep sinusoid channels
  int vl_heads = 32;
  int vl_head_dim = 64;
  int vl_ff_dim = 8192;
  int pos_rows = 1024;      // position embedding table rows (max_seq_len)
};

struct ModelConfig {
  Version version = Version::n15;
  Dims dims;
  int n_blocks = 16;
  int vl_layers = 4;        // VL self-attention pre-stack; 0 when absent (N1.6)
  int n_future = 32;        // future tokens (N1.5 only)
  int action_dim = 32;      // A
  int state_dim = 64;       // S, the width of one state frame (max_state_dim)
  int horizon = 16;         // H
  int n_embodiments = 32;   // category slots of the encoders / decoder
  int n_steps = 4;          // Euler steps (num_inference_timesteps)
  int timestep_buckets = 1000;

  // Settings of config.json that change the computation (docs/model.md lists each with its field).
  int state_history = 1;             // N1.7 state_history_length: frames concatenated into the state token
  bool add_pos_embed = true;         // position_embedding rows added to the action tokens
  bool use_vlln = true;              // LayerNorm on the VL features (N1.5: also gates the VL stack)
  bool interleave_self_attention = true;  // odd blocks self-attend; otherwise every block is cross
  bool alternate_vl_dit = true;      // N1.6/N1.7: cross blocks alternate text / image keys
  int text_every_n_blocks = 2;       // N1.6/N1.7 attend_text_every_n_blocks
  double ff_norm_eps = 1e-5;         // diffusion_model_cfg.norm_eps: the DiT's FF LayerNorm
  double vl_norm_eps = 1e-5;         // vl_self_attention_cfg.norm_eps: the VL stack's LayerNorms

  // Opt-in deviation from the releases (docs/model.md): a token whose attention_mask is 0 is never
  // a key, also where the release attends it (N1.5 cross blocks, the VL stack, the plain DiT).
  bool mask_padding = false;

  std::vector<KeySet> block_keys;            // one per DiT block
  std::map<std::string, int> embodiment_ids;  // tag -> slot

  bool is_cross(int block) const { return block_keys.at(block) != KeySet::self_attn; }
  int m_rows() const { return 1 + n_future + horizon; }  // state, future tokens, actions
  int action_row0() const { return 1 + n_future; }
  int state_input() const { return state_dim * state_history; }  // the state encoder's input width
  // The integer timestep bucket of Euler step i: int(i / n_steps * buckets).
  int step_bucket(int step) const { return int(double(step) / n_steps * timestep_buckets); }
};

// The embodiment to use when none is given: new_embodiment where the release names it and has its
// slot (a small release may carry fewer slots than the version's table names), else slot "0".
std::string default_embodiment(const ModelConfig& config);

// The released defaults of a version (MODEL.md section 1); n_blocks and vl_layers as released.
ModelConfig default_config(Version version);
// The block schedule `config`'s settings give its n_blocks blocks.
std::vector<KeySet> block_schedule(const ModelConfig& config);

}  // namespace ditmk::model
