#pragma once
// The per-call io tensors of the megakernel, from the shared precompute (model/precompute.hpp) run
// in float64 and stored the way the kernel reads them: the hoisted cross K (as K^T tiles) and V of
// each cross block with the admissible keys of its key set first (padded to whole 64-key chunks,
// head_dim padded to 64), the additive masks, the state token and the Euler state.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ditmk/core/matrix.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/precompute.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt::host {

// The key counts of an observation's key sets (admissible keys only) and the layout they give.
LayoutConfig observation_layout(const model::ModelConfig& config, const model::Observation& obs);

// Token indices of the admissible keys of `keys`, in order.
std::vector<int> admissible_keys(const model::Observation& obs, model::KeySet keys, bool mask_padding);

// bf16 tiles of a head-major [32 heads][chunks * 64 keys][64 dims] tensor: tile (h, key tile, d)
// at page (h * key_tiles + key tile) * 2 + d, each stored transposed when `transposed` (K: the
// kernel multiplies by K^T tiles). `kv` is [tokens, width]; key slot j holds token keys[j].
std::vector<std::byte> head_key_tiles(const ArenaLayout& layout, const Matrix<double>& kv,
                                      const std::vector<int>& keys, int chunks, bool transposed);

// [rows, cols] bf16 row-major; key slot j of every row is 0 when j < admissible, else kMaskedScore.
std::vector<std::byte> key_mask_rows(int rows, int cols, int admissible);

// Row-major bf16 rows of a matrix (or zero rows past its end), `rows` x cols.
std::vector<std::byte> bf16_rows(const Matrix<double>& m, int rows);

// [m_pad, a_pad] as tiles of `format`, `block` placed at rows row0.. and columns 0..
std::vector<std::byte> padded_tiles(const Matrix<double>& block, int row0, int rows, int cols, TileFormat format);
// The inverse: rows [row0, row0 + n_rows) and columns [0, n_cols) of a [rows, cols] tile image.
Matrix<double> unpadded(const std::vector<std::byte>& tiles, int rows, int cols, TileFormat format, int row0,
                        int n_rows, int n_cols);

}  // namespace ditmk::tt::host
