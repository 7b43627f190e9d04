#pragma once
// Seed, self-attention blocks: the K^T (group 1) or V (group 2) tiles of this core's head go from
// cb_mm0 straight into the head core's cb_k / cb_v window, counted on its sem_kv; the head core
// (group 0) reserves both windows and pushes them once both arrived.
#include <stdint.h>

#include "core_context.hpp"

namespace ditmk::tt::kernel {

// The data movers' side: tt-metal's JIT builds the dataflow API for BRISC and NCRISC only.
#if !defined(COMPILE_FOR_TRISC)

inline void send_head_kv(const Ctx& x) {
  const uint32_t base = x.group == 1 ? x.cb_k_base : x.cb_v_base;
  const uint32_t window = base + (x.head_k_chunks % NAMED("k4_sdpa_slots")) * 4 * kBf16TileBytes;
  cb_wait_front(x.cb_mm0, 4);
  noc_async_write(get_read_ptr(x.cb_mm0), x.compute_noc(x.head, window), 4 * kBf16TileBytes);
  noc_async_write_barrier();
  noc_semaphore_inc(x.compute_noc(x.head, x.sem_kv), 1);
  cb_pop_front(x.cb_mm0, 4);
}

inline void receive_head_kv(Ctx& x) {
  cb_reserve_back(x.cb_k, 4);
  cb_reserve_back(x.cb_v, 4);
  x.kv_arrivals += 2;
  noc_semaphore_wait_min(l1_word(x.sem_kv), x.kv_arrivals);
  cb_push_back(x.cb_k, 4);
  cb_push_back(x.cb_v, 4);
}

#endif  // !defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
