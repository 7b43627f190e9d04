#pragma once
// An op's padded [K, N] weight matrix, filled from the checkpoint the way ArenaLayout's sources say:
// nn.Linear tensors transposed from [out, in], category tensors sliced at the embodiment, heads of
// head_dim placed at head_dim_pad strides (the pad rows / columns stay zero), the folded attention
// scale applied. Also the inverse question the manifest asks: which tensor rows / columns land in a
// given range of the padded matrix.
#include <optional>
#include <string>
#include <vector>

#include "ditmk/model/weights.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt {

// Row-major [k_pad, n_pad] floats into `m` (resized; reusing one buffer across ops spares the page
// faults of a fresh 38 MB allocation per op). A scaled value is float(w * scale) computed in double,
// so the format's rounding applies once to the scaled value.
void op_matrix(const ArenaOp& op, const model::Weights& weights, int embodiment, int head_dim, int head_dim_pad,
               std::vector<float>& m);

// Element range [begin, end) of a checkpoint tensor axis.
struct AxisRange {
  int begin = 0, end = 0;
};

// The part of one source tensor that lands inside padded rows [k0, k1) x columns [n0, n1) of its op,
// in the tensor's own (stored) axes: rows / cols of the [out, in] or (embodiment slice) [in, out]
// matrix. Empty when the source contributes nothing there.
struct SourcePart {
  const WeightSource* source = nullptr;
  AxisRange rows, cols;
};
std::optional<SourcePart> source_part(const WeightSource& source, int k0, int k1, int n0, int n1, int head_dim,
                                      int head_dim_pad);

// Where source element j of a padded axis lands (the identity unless heads are padded).
inline int padded_index(int j, bool pad_heads, int head_dim, int head_dim_pad) {
  return pad_heads ? (j / head_dim) * head_dim_pad + j % head_dim : j;
}

// The checkpoint matrix of one source: the tensor itself, or its embodiment slice for category
// tensors. Error naming the tensor when its shape does not hold the source's ranges.
TensorView source_view(const WeightSource& source, const model::Weights& weights, int embodiment);

}  // namespace ditmk::tt
