#pragma once
// invalidate_l1_cache(): on Blackhole a fence before reading L1 that another agent (the NoC) may
// have written. The emulated L1 is plain memory with no data cache, so there is nothing to drop.
inline __attribute__((always_inline)) void invalidate_l1_cache() {}
