#pragma once
// The DST register protocol: tile_regs_acquire (DST zeroed) -> math -> tile_regs_commit ->
// tile_regs_wait -> pack_tile ... -> tile_regs_release; and the older acquire_dst/release_dst pair,
// between which math and packs may alternate.
#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void tile_regs_acquire() { ditmk::abi->dst(DITMK_DST_ACQUIRE); }
ALWI void tile_regs_commit() { ditmk::abi->dst(DITMK_DST_COMMIT); }
ALWI void tile_regs_wait() { ditmk::abi->dst(DITMK_DST_WAIT); }
ALWI void tile_regs_release() { ditmk::abi->dst(DITMK_DST_RELEASE); }

ALWI void acquire_dst(tt::DstMode mode = tt::DstMode::Half) {
  (void)mode;
  ditmk::abi->dst(DITMK_DST_ACQUIRE_LEGACY);
}

ALWI void release_dst(tt::DstMode mode = tt::DstMode::Half) {
  (void)mode;
  ditmk::abi->dst(DITMK_DST_RELEASE_LEGACY);
}

}  // namespace ckernel
