#pragma once
// The row tables the megakernel reads beside the arenas (io slots adaln_rows, bias_rows, b2_step,
// b3_pos_rows, future_tokens). They depend on the weights and the embodiment only, are computed in
// float64 and stored as bf16 row-major. docs/plan.md, "Packing", gives the row maps:
//   adaln_rows [n_steps * (2 n_blocks + 2), width]: step s starts at row s (2n + 2); row 2b holds
//     1 + scale and row 2b + 1 the shift of block b's AdaLN; rows 2n and 2n + 1 hold 1 + scale and
//     the shift of the output layer (proj_out_1), in the same order as the blocks.
//   bias_rows [4 n_blocks + 4, ff_dim]: rows 4b .. 4b + 3 are block b's q|qkv, out, ff1, ff2 biases in
//     the op's padded N layout (heads at head_dim_pad strides, Q scaled when the scale is folded);
//     rows 4n .. 4n + 3 the tail biases of proj_out_2, dec1, dec2, enc1. enc2a's bias is in b2_step
//     and enc3's in b3_pos_rows.
//   b2_step [n_steps, width]: W2's tau half times tau(t_s) plus b2.
//   b3_pos_rows [m_pad, width]: rows action_rows[0] + j = b3 + position_embedding[j], other rows 0.
//   future_tokens [n_future, width]: the learned future-token rows (N1.5).
#include <string>
#include <vector>

#include "ditmk/model/weights.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt {

// Where one run of a table row came from, for the manifest.
struct TableRun {
  int row = 0, col0 = 0, col1 = 0;
  std::string what;                  // "1 + scale", "bias", "b3 + position", ...
  std::vector<std::string> tensors;  // the checkpoint tensors it is computed from
  int tensor_row = -1;               // row taken from a tensor with rows (position, future tokens)
  double scale = 1.0;                // folded attention scale applied
  int step = -1, block = -1;
};

struct HostTable {
  std::string name;  // the io slot name
  int rows = 0, cols = 0;
  std::vector<double> values;  // row-major, float64 before the bf16 store
  std::vector<TableRun> runs;
};

// adaln_rows, bias_rows, b2_step, b3_pos_rows and (N1.5) future_tokens, in that order.
std::vector<HostTable> host_tables(const ArenaLayout& layout, const model::Weights& weights, int embodiment);

}  // namespace ditmk::tt
