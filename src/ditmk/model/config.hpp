#pragma once
// What a GR00T action head is: version, dimensions, block schedule and embodiments. Read from a
// release's config.json and checked against its tensors (model/weights.hpp), or made from the
// version defaults (make-checkpoint).
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ditmk::model {

enum class Version { n15, n16, n17 };
std::string_view version_name(Version version);         // "n15"
Version parse_version(std::string_view name);           // throws Error on anything else

// Which keys a DiT block attends to. `self_attn` blocks attend to their own rows; cross blocks attend
// to the VL tokens: N1.5 to all of them, N1.6/N1.7 to the text (idx%4==0) or image (idx%4==2) tokens.
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
  int pos_rows = 1024;      // position embedding table rows
};

struct ModelConfig {
  Version version = Version::n15;
  Dims dims;
  int n_blocks = 16;
  int vl_layers = 4;        // VL self-attention pre-stack; 0 when absent (N1.6)
  int n_future = 32;        // future tokens (N1.5 only)
  int action_dim = 32;      // A
  int state_dim = 64;       // S
  int horizon = 16;         // H
  int n_embodiments = 32;   // category slots of the encoders / decoder
  int n_steps = 4;          // Euler steps
  int timestep_buckets = 1000;
  std::vector<KeySet> block_keys;            // one per DiT block
  std::map<std::string, int> embodiment_ids;  // tag -> slot

  bool is_cross(int block) const { return block_keys.at(block) != KeySet::self_attn; }
  int m_rows() const { return 1 + n_future + horizon; }  // state, future tokens, actions
  int action_row0() const { return 1 + n_future; }
  // The integer timestep bucket of Euler step i: int(i / n_steps * buckets).
  int step_bucket(int step) const { return int(double(step) / n_steps * timestep_buckets); }
};

// The released defaults of a version (MODEL.md section 1); n_blocks and vl_layers as released.
ModelConfig default_config(Version version);
// The block schedule of a version for n_blocks blocks (odd blocks self-attention).
std::vector<KeySet> block_schedule(Version version, int n_blocks);

}  // namespace ditmk::model
