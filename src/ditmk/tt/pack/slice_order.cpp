#include "ditmk/tt/pack/slice_order.hpp"

#include "ditmk/core/error.hpp"

namespace ditmk::tt {

int k_block_tiles(const ArenaOp& op) {
  const uint64_t row_bytes = uint64_t(op.slices.at(0).n_tiles) * tile_bytes(op.format);
  require(op.k_block_bytes > 0 && op.k_block_bytes % row_bytes == 0,
          "{}: K-block of {} B is not a whole number of {}-tile rows", op.name, op.k_block_bytes,
          op.slices.at(0).n_tiles);
  return int(op.k_block_bytes / row_bytes);
}

int slice_tile_position(const ArenaOp& op, const CoreSlice& slice, TileOrder order, int k, int n) {
  const int kb_tiles = k_block_tiles(op);
  const int block = k / kb_tiles, k_in = k % kb_tiles;
  const int inside = order == TileOrder::row_major ? k_in * slice.n_tiles + n : n * kb_tiles + k_in;
  return block * kb_tiles * slice.n_tiles + inside;
}

uint64_t slice_offset_in_bank(uint32_t op_bank_offset, const CoreSlice& slice) {
  return uint64_t(op_bank_offset) + uint64_t(slice.compute_idx / kDramBanks) * slice.bytes;
}

}  // namespace ditmk::tt
