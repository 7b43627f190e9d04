#pragma once
// The kernel's profiler zones have literal names, as tt-metal's DeviceZoneScopedN requires
// ("encoder", "blk", "head" per step; "gather", "round", "multicast" per hub round); a
// DeviceTimestampedData record right after each opens says which step, block or round it is. The
// timing report finds blocks and rounds by name and tag.
//
// tt-metal 0.81.1 names a record by a string literal, which its profiler pastes into a source
// location string: the names are macros, since a constexpr array would not paste.
//
// Freestanding on purpose (no library beyond <stdint.h>): the kernel in tt-metal's dialect
// includes it as it is.
#include <stdint.h>

namespace ditmk::tt::kernel {

// The records' names.
#define DIT_STEP_RECORD "step"    // encoder, head: the step
#define DIT_BLOCK_RECORD "block"  // blk: step << 32 | block
#define DIT_ROUND_RECORD "round"  // gather, round, multicast: hub << 32 | round of that hub

inline constexpr uint64_t block_tag(uint32_t step, uint32_t block) { return uint64_t(step) << 32 | block; }
inline constexpr uint64_t round_tag(uint32_t hub, uint32_t round) { return uint64_t(hub) << 32 | round; }

}  // namespace ditmk::tt::kernel
