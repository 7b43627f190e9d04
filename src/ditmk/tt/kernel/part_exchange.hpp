#pragma once
// Exchanges of fp32 tiles into cb_part among a few compute cores (the Q thirds of a head, the K
// quarters of an output tile, the key-set parts of a split head): every member reserves its cb_part
// whole and grants each member a credit; each then sends its tiles and counts an arrival on each
// member; cb_part is pushed when all members' arrivals are in.
#include <stdint.h>

#include "core_context.hpp"
#include "small_list.hpp"

namespace ditmk::tt::kernel {

// The data movers' side: tt-metal's JIT builds the dataflow API for BRISC and NCRISC only.
#if !defined(COMPILE_FOR_TRISC)

using Members = SmallList<uint32_t, 4>;  // the compute cores of an exchange

struct PartSend {
  uint32_t src_tile, dst_core, dst_page;
};
using PartSends = SmallList<PartSend, 16>;

// The two halves of an exchange, for senders that write from several CB windows in between.
inline void exchange_open(Ctx& x, const Members& members) {
  cb_reserve_back(x.cb_part, kPartPages);
  for (uint32_t m : members) noc_semaphore_inc(x.compute_noc(m, x.sem_credit), 1);
  x.credits += members.size();
  noc_semaphore_wait_min(l1_word(x.sem_credit), x.credits);
}

inline void exchange_close(Ctx& x, const Members& members) {
  noc_async_write_barrier();
  for (uint32_t m : members) noc_semaphore_inc(x.compute_noc(m, x.sem_arrival), 1);
  x.arrivals += members.size();
  noc_semaphore_wait_min(l1_word(x.sem_arrival), x.arrivals);
  cb_push_back(x.cb_part, kPartPages);
}

// BRISC: the tiles (offset in tiles from src_l1, destination compute core, destination page).
inline void exchange(Ctx& x, const Members& members, uint32_t src_l1, const PartSends& sends) {
  exchange_open(x, members);
  const uint32_t part_base = get_write_ptr(x.cb_part);  // the same on every compute core
  for (const PartSend& s : sends) {
    noc_async_write(src_l1 + s.src_tile * kFp32TileBytes, x.compute_noc(s.dst_core, part_base + s.dst_page * kFp32TileBytes),
                    kFp32TileBytes);
  }
  exchange_close(x, members);
}

#endif  // !defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
