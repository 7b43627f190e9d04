#include "ditmk/tt/plan/layout_config.hpp"

#include <algorithm>

#include "ditmk/core/error.hpp"

namespace ditmk::tt {

using model::KeySet;

int pad_keys(int keys) { return (keys + kKeyTile - 1) / kKeyTile * kKeyTile; }

static bool uses(const model::ModelConfig& config, KeySet keys) {
  return std::find(config.block_keys.begin(), config.block_keys.end(), keys) != config.block_keys.end();
}

LayoutConfig derive_layout(const model::ModelConfig& config, const KeyCounts& keys, std::string name) {
  LayoutConfig layout{std::move(name), 0, 0, std::nullopt};
  if (uses(config, KeySet::all)) {
    require(keys.all > 0, "layout {}: the `all` key set is used but has {} keys", layout.name, keys.all);
    layout.all_keys = keys.all;
  }
  if (uses(config, KeySet::text)) {
    require(keys.text > 0, "layout {}: the `text` key set is used but has {} keys", layout.name, keys.text);
    layout.text_keys = keys.text;
  }
  if (uses(config, KeySet::image)) {
    require(keys.image > 0, "layout {}: the `image` key set is used but has {} keys", layout.name, keys.image);
    layout.cross_image_keys = std::pair{keys.image, pad_keys(keys.image)};
  }
  return layout;
}

LayoutConfig default_layout(const model::ModelConfig& config) {
  switch (config.version) {
    case model::Version::n15: return derive_layout(config, {384, 0, 0}, "gr1");
    case model::Version::n16: return derive_layout(config, {0, 64, 81}, "gr1");
    case model::Version::n17: return derive_layout(config, {0, 64, 448}, "droid");
  }
  fail("version {} has no default layout", int(config.version));
}

std::vector<KeySetShape> key_set_shapes(const model::ModelConfig& config, const LayoutConfig& layout) {
  std::vector<KeySetShape> shapes;
  for (KeySet keys : config.block_keys) {
    if (keys == KeySet::self_attn) continue;
    bool seen = std::any_of(shapes.begin(), shapes.end(), [&](const KeySetShape& s) { return s.keys == keys; });
    if (seen) continue;
    int real = 0;
    if (keys == KeySet::all) real = layout.all_keys;
    if (keys == KeySet::text) real = layout.text_keys;
    if (keys == KeySet::image && layout.cross_image_keys) real = layout.cross_image_keys->first;
    require(real > 0, "layout {}: blocks use the `{}` key set but it has no keys", layout.name,
            model::key_set_name(keys));
    int padded = keys == KeySet::image ? layout.cross_image_keys->second : pad_keys(real);
    require(padded >= real && padded % kKeyTile == 0,
            "layout {}: `{}` keys padded to {} do not hold {} keys in whole 32-key tiles", layout.name,
            model::key_set_name(keys), padded, real);
    shapes.push_back({keys, real, padded});
  }
  return shapes;
}

}  // namespace ditmk::tt
