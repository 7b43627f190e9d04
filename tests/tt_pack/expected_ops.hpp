#pragma once
// What each op's padded [K, N] matrix must hold, written out per op kind straight from the typed
// weight views (independently of the packer's generic source table), and its format rounding.
#include <vector>

#include "ditmk/model/weights.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt::testing {

std::vector<float> expected_op(const ArenaOp& op, const model::Weights& weights, int embodiment);

// The matrix after a round trip through `format`, tile by tile.
std::vector<float> rounded(TileFormat format, const std::vector<float>& m, int rows, int cols);

}  // namespace ditmk::tt::testing
