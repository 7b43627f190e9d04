#pragma once
// Static attention shapes of a deployment: which key sets the cross blocks read and how many keys
// each holds once padded. Real key counts are rounded up to whole 32-key tiles; attention walks
// them in 64-key chunks, so the last chunk may be half full.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ditmk/model/config.hpp"

namespace ditmk::tt {

constexpr int kKeyTile = 32;
constexpr int kKeyChunk = 64;
// Cross key sets of at least this many 64-key chunks share each head's keys over the three cores
// h, 32+h and 64+h, which then merge their (max, sum, O) parts.
constexpr int kSplitMinChunks = 3;
constexpr int kSplitWays = 3;

// Key counts of one observation layout. `all` and `text` are capacities (a per-call mask hides
// unused keys); `image` is the exact real count, padded with constant-masked keys.
struct KeyCounts {
  int all = 0;
  int text = 0;
  int image = 0;
};

struct LayoutConfig {
  std::string name;
  int all_keys = 0;                                    // capacity of the `all` set (N1.5)
  int text_keys = 0;                                   // capacity of the `text` set
  std::optional<std::pair<int, int>> cross_image_keys;  // (real, padded) image keys
};

// One key set as the kernel sees it.
struct KeySetShape {
  model::KeySet keys = model::KeySet::all;
  int l_real = 0;  // real (or capacity) key count
  int l_pad = 0;   // padded to whole 32-key tiles
  int chunks() const { return (l_pad + kKeyChunk - 1) / kKeyChunk; }
  bool split() const { return chunks() >= kSplitMinChunks; }
};

int pad_keys(int keys);  // round up to whole 32-key tiles

// The layout of a version for the given key counts: N1.5 uses `all`, N1.6/N1.7 `text` and `image`
// (whichever the block schedule of `config` actually uses). Throws ditmk::Error naming the key set
// when a used set has no keys.
LayoutConfig derive_layout(const model::ModelConfig& config, const KeyCounts& keys, std::string name);

// The layouts the released checkpoints were planned for: N1.5 gr1 (all <= 384), N1.6 gr1
// (text <= 64, image 81 -> 96), N1.7 droid (text <= 64, image 448).
LayoutConfig default_layout(const model::ModelConfig& config);

// The shapes of the key sets `config`'s blocks use, in first-use order.
std::vector<KeySetShape> key_set_shapes(const model::ModelConfig& config, const LayoutConfig& layout);

}  // namespace ditmk::tt
