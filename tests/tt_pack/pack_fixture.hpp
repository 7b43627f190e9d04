#pragma once
// A small N1.5 release at the released widths (the plan only supports those) with 2 DiT blocks (one
// cross, one self), no VL stack and 2 embodiment slots, packed in bf16 and bfp8_b. Written once per
// test process into a temporary directory.
#include <string>

#include "ditmk/model/weights.hpp"
#include "ditmk/tt/pack/packer.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::tt::testing {

constexpr int kPackedEmbodiment = 1;  // "new_embodiment", the default: not slot 0, so slicing shows

model::ModelConfig small_n15_config();

struct PackFixture {
  std::string release;
  model::Weights weights;
  std::string pack_dir;
  PackSummary summary;
};

const PackFixture& packed(TileFormat dtype);
const ditmk::testing::TempDir& fixture_root();

}  // namespace ditmk::tt::testing
