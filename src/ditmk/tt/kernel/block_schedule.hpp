#pragma once
// Which attention every DiT block runs, and the shape of its key set, from the structure named args
// as the device kernel computes them: odd blocks are self-attention when the model interleaves it;
// the cross blocks attend to all VL tokens (N1.5), or alternate between text (every
// 2 x text_every_n_blocks-th block from 0) and image keys (N1.6 / N1.7). The plan sets the two args
// from the model's schedule and refuses a schedule this rule does not give (program_builder.cpp).
//
// Freestanding on purpose (no library beyond <stdint.h>): the kernel in tt-metal's dialect
// includes it as it is.
#include <stdint.h>

namespace ditmk::tt::kernel {

enum class BlockKeys : uint32_t { self = 0, text = 1, image = 2, all = 3 };

inline constexpr uint32_t kKeysPerChunk = 64;   // keys of one attention chunk (2 key tiles)
inline constexpr uint32_t kSplitFromChunks = 3;  // key sets of at least 3 chunks split over a head's 3 cores

struct BlockSchedule {
  uint32_t interleave_self_attention = 0;  // 1: odd blocks are self-attention
  uint32_t text_every_n_blocks = 0;        // 0: every cross block attends to all keys
  uint32_t l_txt_pad = 0, l_img_pad = 0, l_all_pad = 0;  // padded key counts of the sets
};

// `named(name)` gives a named compile-time arg; constexpr, so the kernel evaluates it at compile time.
template <typename Named>
constexpr BlockSchedule block_schedule(Named named) {
  BlockSchedule s;
  s.interleave_self_attention = named("interleave_self_attention");
  s.text_every_n_blocks = named("text_every_n_blocks");
  s.l_txt_pad = named("l_txt_pad"), s.l_img_pad = named("l_img_pad"), s.l_all_pad = named("l_all_pad");
  return s;
}

inline BlockKeys block_keys(const BlockSchedule& s, uint32_t block) {
  if (s.interleave_self_attention && block % 2 == 1) return BlockKeys::self;
  if (s.text_every_n_blocks == 0) return BlockKeys::all;
  return block % (2 * s.text_every_n_blocks) == 0 ? BlockKeys::text : BlockKeys::image;
}

inline uint32_t padded_keys(const BlockSchedule& s, BlockKeys keys) {
  switch (keys) {
    case BlockKeys::text: return s.l_txt_pad;
    case BlockKeys::image: return s.l_img_pad;
    case BlockKeys::all: return s.l_all_pad;
    case BlockKeys::self: break;
  }
  return 0;
}
inline uint32_t key_chunks(const BlockSchedule& s, BlockKeys keys) {
  return (padded_keys(s, keys) + kKeysPerChunk - 1) / kKeysPerChunk;
}
inline bool keys_split(const BlockSchedule& s, BlockKeys keys) { return key_chunks(s, keys) >= kSplitFromChunks; }

}  // namespace ditmk::tt::kernel
