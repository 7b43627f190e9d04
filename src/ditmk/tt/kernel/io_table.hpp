#pragma once
// Where each io tensor's address sits in the common runtime args, computed as the device kernel
// computes it: the plan's io slot order (tt/plan/io_slots.cpp) with the hoisted K and V of each cross
// block after the masks, then the variant's own slots. Every slot keeps its place when absent
// (address 0). A test compares it with the plan's order for every version and variant.
//
// Freestanding on purpose (no library beyond <stdint.h>): the kernel in tt-metal's dialect
// includes it as it is.
#include <stdint.h>

#include "block_schedule.hpp"

namespace ditmk::tt::kernel {

// The slots every variant has, at these indices.
enum class Io : uint32_t {
  x_rep = 0,
  a_rep = 1,
  arena_stream = 2,
  arena_small = 3,
  adaln_rows = 4,
  bias_rows = 5,
  b2_step = 6,
  b3_pos_rows = 7,
  future_tokens = 8,
  self_mask = 9,
  text_mask = 10,
  image_mask = 11,
  all_mask = 12,
};
inline constexpr uint32_t kFirstKvIo = 13;

// The slots after the K / V pairs: block has x_out; step has y_out; steps4 has x_t,
// state_features, velocity_out and action_pred.
enum class OutIo : uint32_t { x_out, y_out, x_t, state_features, velocity_out, action_pred };

inline uint32_t cross_blocks_before(const BlockSchedule& s, uint32_t block) {
  uint32_t n = 0;
  for (uint32_t b = 0; b < block; ++b) n += block_keys(s, b) != BlockKeys::self;
  return n;
}

// kv_k_<block> (v = false) or kv_v_<block> (v = true) of a cross block.
inline uint32_t kv_io(const BlockSchedule& s, uint32_t block, bool v) {
  return kFirstKvIo + 2 * cross_blocks_before(s, block) + (v ? 1 : 0);
}

inline uint32_t out_io(const BlockSchedule& s, uint32_t n_blocks, OutIo slot) {
  const uint32_t first = kFirstKvIo + 2 * cross_blocks_before(s, n_blocks);
  switch (slot) {
    case OutIo::x_out:
    case OutIo::y_out:
    case OutIo::x_t: return first;
    case OutIo::state_features: return first + 1;
    case OutIo::velocity_out: return first + 2;
    case OutIo::action_pred: return first + 3;
  }
  return first;
}

// The mask slot of a cross block's key set.
inline Io mask_io(BlockKeys keys) {
  return keys == BlockKeys::text ? Io::text_mask : keys == BlockKeys::image ? Io::image_mask : Io::all_mask;
}

}  // namespace ditmk::tt::kernel
