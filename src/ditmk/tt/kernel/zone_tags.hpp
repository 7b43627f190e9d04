#pragma once
// The kernel's profiler zones have literal names, as tt-metal's DeviceZoneScopedN requires
// ("encoder", "blk", "head" per step; "gather", "round", "multicast" per hub round); a
// DeviceTimestampedData record right after each opens says which step, block or round it is. The
// timing report finds blocks and rounds by name and tag.
//
// Freestanding on purpose (no library beyond <stdint.h>): the kernel in tt-metal's dialect
// includes it as it is.
#include <stdint.h>

namespace ditmk::tt::kernel {

// Data ids of the records.
inline constexpr uint32_t kStepTag = 1;   // encoder, head: the step
inline constexpr uint32_t kBlockTag = 2;  // blk: step << 32 | block
inline constexpr uint32_t kRoundTag = 3;  // gather, round, multicast: hub << 32 | round of that hub

inline constexpr uint64_t block_tag(uint32_t step, uint32_t block) { return uint64_t(step) << 32 | block; }
inline constexpr uint64_t round_tag(uint32_t hub, uint32_t round) { return uint64_t(hub) << 32 | round; }

}  // namespace ditmk::tt::kernel
