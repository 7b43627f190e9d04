#pragma once
// A batch of observations as GR00T passes one: every array with a leading batch dimension B
// (features [B, S, ctx], masks [B, S], state [B, state_dim] or [B, L, state_dim], noise [B, H, A]).
// Each sample is a view of its rows, nothing is copied; sample i's arrays are then checked as one
// observation's (model::make_observation).
#include <string>
#include <vector>

#include "ditmk/core/tensor.hpp"
#include "ditmk/model/observation.hpp"

namespace ditmk::model {

// Sample i of a batched array: its dimension 0 dropped, the view at row i.
TensorView sample_of(const TensorView& batched, int64_t i);

// The batch size the arrays share. Error naming the array when one is a scalar or its leading
// dimension differs from the others' ("what:state: a batch of 3, but features has a batch of 4"),
// or when there are no arrays or the batch is empty.
int64_t batch_size(const ObservationArrays& batched, const std::string& what);

// The samples' arrays, views into `batched` (which the caller keeps alive).
std::vector<ObservationArrays> split_batch(const ObservationArrays& batched, const std::string& what);

}  // namespace ditmk::model
