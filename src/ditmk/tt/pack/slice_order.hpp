#pragma once
// Where each tile of a core's slice sits in the bytes that core streams. A slice is a K x N range
// of tiles stored as K-blocks in K order; inside a K-block the tiles follow the layout's tile order
// (row_major: (k0,n0) (k0,n1) (k1,n0) ...; col_major: (k0,n0) (k1,n0) ... (k0,n1) ...). Tail slices
// are one N tile wide and one K-block long, so both orders agree there.
#include <cstdint>

#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt {

// K tiles per streamed transaction of `op` (8 for the block ops, the whole K for the tail ops).
int k_block_tiles(const ArenaOp& op);

// Position (in tiles) of slice tile (k, n), both relative to the slice's first tile.
int slice_tile_position(const ArenaOp& op, const CoreSlice& slice, TileOrder order, int k, int n);

// Where a slice lives: bank offset = the op's offsets-table entry + (c / 8) x slice bytes (docs/plan.md,
// "DRAM placement"). Taking the table entry as an argument lets readers go through the table itself.
uint64_t slice_offset_in_bank(uint32_t op_bank_offset, const CoreSlice& slice);

}  // namespace ditmk::tt
