#include "ditmk/tt/pack/arena_image.hpp"

#include "ditmk/core/error.hpp"
#include "ditmk/tt/formats.hpp"
#include "ditmk/tt/pack/op_matrix.hpp"
#include "ditmk/tt/pack/slice_order.hpp"

namespace ditmk::tt {

namespace {

// Names the checkpoint tensors of an op for the error a value bfp8_b cannot hold raises.
std::string op_what(const ArenaOp& op, int compute_idx) {
  std::string tensors;
  for (const WeightSource& s : op.sources) tensors += (tensors.empty() ? "" : ", ") + s.tensor;
  return fmt::format("{} core {} ({})", op.name, compute_idx, tensors);
}

}  // namespace

std::vector<std::byte> arena_image(const ArenaLayout& layout, Arena arena, const model::Weights& weights,
                                   int embodiment) {
  const uint64_t bank_bytes = layout.arena_bank_bytes[int(arena)];
  std::vector<std::byte> image(bank_bytes * kDramBanks);
  const std::vector<uint32_t> offsets = layout.offsets_table();
  std::vector<float> matrix, tiles;
  for (std::size_t i = 0; i < layout.ops.size(); ++i) {
    const ArenaOp& op = layout.ops[i];
    if (op.arena != arena) continue;
    op_matrix(op, weights, embodiment, layout.head_dim, layout.head_dim_pad, matrix);
    for (const CoreSlice& s : op.slices) {
      const std::size_t n_tiles = std::size_t(s.k_tiles) * s.n_tiles;
      tiles.resize(n_tiles * kTileElems);
      for (int k = 0; k < s.k_tiles; ++k) {
        for (int n = 0; n < s.n_tiles; ++n) {
          const std::size_t at = std::size_t(slice_tile_position(op, s, layout.tile_order, k, n)) * kTileElems;
          const float* src =
              matrix.data() + std::size_t(s.k_tile0 + k) * kTile * op.n_pad + std::size_t(s.n_tile0 + n) * kTile;
          tilize_tile(src, std::size_t(op.n_pad), tiles.data() + at);
        }
      }
      require(n_tiles * tile_bytes(op.format) == s.bytes, "{}: slice of core {} is not {} B", op.name,
              s.compute_idx, s.bytes);
      const uint64_t at = uint64_t(s.bank) * bank_bytes + slice_offset_in_bank(offsets[i], s);
      pack_tiles(op.format, tiles.data(), n_tiles, image.data() + at, op_what(op, s.compute_idx));
    }
  }
  return image;
}

}  // namespace ditmk::tt
