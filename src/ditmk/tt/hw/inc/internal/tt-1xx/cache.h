#pragma once
// tt-metal's internal/tt-1xx/cache.h: invalidate_l1_cache drops the RISC's L1 data cache, so the
// next loads see what the NoC or another processor wrote to L1. The emulator's L1 is the host's
// memory, seen alike by every processor, so there is no cache to drop; what is left of the call's
// meaning is that loads after it are not served from before it: a compiler barrier.
inline __attribute__((always_inline)) void invalidate_l1_cache() { asm volatile("" ::: "memory"); }
