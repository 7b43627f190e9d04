#pragma once
// The steps tilize and untilize share (api/compute/tilize.h, untilize.h, pack_untilize.h,
// experimental/fast_untilize.h): each tile goes through DST as on the chip, acquired and released by
// the call itself, so a kernel must not hold DST around one.
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk/compute.h"

namespace ditmk::layout {

// Tiles [first, first + count) of the row-major block at icb's front, each unpacked into DST[0] and
// packed as the next tile of ocb's reservation.
FORCE_INLINE void tilize_tiles(uint32_t icb, uint32_t first, uint32_t count, uint32_t ocb, uint32_t out_first) {
  for (uint32_t t = 0; t < count; ++t) {
    abi->dst(DITMK_DST_ACQUIRE);
    abi->unpack_tilize(icb, first + t, 0);
    abi->dst(DITMK_DST_COMMIT);
    abi->dst(DITMK_DST_WAIT);
    abi->pack_tile(0, ocb, out_first + t, 1);
    abi->dst(DITMK_DST_RELEASE);
  }
}

// `block` tiles from icb's front (from tile `first`) copied into DST[0..block) and written as
// row-major rows into ocb's reservation: column tile block_index * block of rows `full` tiles wide.
FORCE_INLINE void untilize_block_of(uint32_t icb, uint32_t first, uint32_t block, uint32_t full, uint32_t ocb,
                                    uint32_t block_index) {
  abi->dst(DITMK_DST_ACQUIRE);
  for (uint32_t c = 0; c < block; ++c) abi->copy_tile(icb, first + c, c);
  abi->dst(DITMK_DST_COMMIT);
  abi->dst(DITMK_DST_WAIT);
  abi->pack_untilize(block, full, ocb, block_index, 1);
  abi->dst(DITMK_DST_RELEASE);
}

// The unpacker copies tiles as they are and the packer writes rows.
FORCE_INLINE void untilize_init() {
  compute::init(DITMK_INIT_COPY, 0);
  compute::init(DITMK_INIT_PACK_UNTILIZE, 1);
}

FORCE_INLINE void untilize_uninit() { compute::init(DITMK_INIT_PACK_UNTILIZE, 0); }

}  // namespace ditmk::layout
