#pragma once
// The compute BRISC's moves of the residual and of the seed's LayerNorm statistics: a round's tile
// row (or own tile) from cb_a into cb_x, and this core's partial row sums into hub 1's statistics
// tiles.
#include <stdint.h>

#include "core_context.hpp"
#include "dram_tiles.hpp"
#include "zone_tags.hpp"

namespace ditmk::tt::kernel {

// The data movers' side: tt-metal's JIT builds the dataflow API for BRISC and NCRISC only.
#if !defined(COMPILE_FOR_TRISC)

// After a residual round: this core's tile row of the new residual from cb_a into cb_x.
inline void refill_residual_row(const Ctx& x) {
  cb_reserve_back(x.cb_x, kRowTiles);
  local_copy(get_read_ptr(x.cb_a) + x.row * kRowTiles * kBf16TileBytes, get_write_ptr(x.cb_x), kRowTiles * kBf16TileBytes);
  cb_push_back(x.cb_x, kRowTiles);
  cb_pop_front(x.cb_a, kCbAPages);
}

// After the encoder's round (seed): this core's own tile of the new residual into cb_x.
inline void refill_own_tile(const Ctx& x) {
  cb_reserve_back(x.cb_x, 1);
  local_copy(get_read_ptr(x.cb_a) + (x.row * kRowTiles + x.col) * kBf16TileBytes, get_write_ptr(x.cb_x), kBf16TileBytes);
  cb_push_back(x.cb_x, 1);
  cb_pop_front(x.cb_a, kCbAPages);
}

// Seed LayerNorm statistics: row 0 of the two partial tiles in cb_scores (sums of x and of x^2 for
// this core's 32 columns) into hub 1's statistics tiles, as row `col` of its tile row's tiles; the
// statistics round then multicasts them into every compute core's cb_part.
inline void send_ln_stats(const Ctx& x) {
  constexpr uint32_t kFaceRowBytes = 16 * 4;  // 16 fp32 values
  constexpr uint32_t kFaceBytes = 16 * kFaceRowBytes;
  const uint32_t row = x.col % 32, block = x.col / 32;
  // row `row` of a tile: faces 0 / 1 for rows 0-15, 2 / 3 below
  const uint32_t row_offset = (row / 16) * 2 * kFaceBytes + (row % 16) * kFaceRowBytes;
  DeviceZoneScopedN("gather");
  DeviceTimestampedData(DIT_ROUND_RECORD, round_tag(1, x.rounds[1] + 1));
  cb_wait_front(x.cb_scores, 4);
  for (uint32_t sum = 0; sum < 2; ++sum) {
    const uint32_t src = get_read_ptr(x.cb_scores) + sum * kFp32TileBytes;
    const uint32_t tile = x.row * 4 + sum * 2 + block;
    const uint32_t dst = x.land[1] + kStatsLandPage * kBf16TileBytes + tile * kFp32TileBytes + row_offset;
    for (uint32_t half = 0; half < 2; ++half)
      noc_async_write(src + half * kFaceBytes, x.hub_noc(1, dst + half * kFaceBytes), kFaceRowBytes);
  }
  noc_async_write_barrier();
  noc_semaphore_inc(x.hub_noc(1, x.sem_gather), 1);
  cb_pop_front(x.cb_scores, 4);
}

#endif  // !defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
