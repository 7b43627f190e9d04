#pragma once
// tt-metal's invalidate_l1_cache (internal/tt-1xx/cache.h): Blackhole's RISCs read L1 through a small
// write-through cache, so a kernel that reads bytes the NoC wrote behind the cache invalidates it
// first (ttnn's tt_memmove does before its CPU copy). The emulator's kernels read L1 as host memory,
// which the NoC model writes directly: there is no cache to go stale, and the call does nothing.
#include "ditmk/attributes.h"

FORCE_INLINE void invalidate_l1_cache() {}
