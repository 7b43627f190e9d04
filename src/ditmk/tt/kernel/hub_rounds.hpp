#pragma once
// The hubs' rounds: compute cores write tiles into a hub's landing ring and count themselves on its
// gather semaphore; the hub, once every contribution and every compute core's ready credit is in,
// multicasts the pages into cb_a of every core and raises its round semaphore. Hub 0 runs the rounds
// of both protocols; the seed's hub 1 runs the LayerNorm statistics and the odd FF2 chunks.
#include <stdint.h>

#include "core_context.hpp"
#include "dram_tiles.hpp"
#include "zone_tags.hpp"

namespace ditmk::tt::kernel {

// The data movers' side: tt-metal's JIT builds the dataflow API for BRISC and NCRISC only.
#if !defined(COMPILE_FOR_TRISC)

inline uint32_t mcast_receivers() { return NAMED("grid_x") * NAMED("grid_y") - 1; }

inline uint64_t mcast_rect(uint32_t address) {
  return mcast_noc_addr(NAMED("mcast_x0"), NAMED("mcast_y0"), NAMED("mcast_x1"), NAMED("mcast_y1"), address);
}

// The hubs publish their landing rings' bases at start, the compute cores learn them.
inline void publish_landing_ring(const Ctx& x) {
  const uint32_t sem = x.sem_land[x.hub_index];
  noc_semaphore_set(l1_word(sem), x.land[x.hub_index]);
  noc_semaphore_set_multicast(sem, mcast_rect(sem), mcast_receivers());
}

inline void learn_landing_rings(Ctx& x) {
  for (uint32_t hub = 0; hub < (x.seed() ? 2u : 1u); ++hub) {
    noc_semaphore_wait_min(l1_word(x.sem_land[hub]), 1);
    x.land[hub] = *l1_word(x.sem_land[hub]);
    pointer_l1_bytes(sizeof(uint32_t));
  }
}

// Writes tiles (offset in tiles from src_l1, page of the landing ring) into hub `hub`'s landing ring
// and counts this core as one contribution there, to the hub's next round or (`ahead`) a later one.
inline void contribute(const Ctx& x, uint32_t hub, uint32_t src_l1, const IndexPairs& tiles, uint32_t ahead = 0) {
  // round n of a hub: its gather on the producers, its arrival on the receivers, its multicast on
  // the hub (the timing report measures rounds between them)
  DeviceZoneScopedN("gather");
  DeviceTimestampedData(DIT_ROUND_RECORD, round_tag(hub, x.rounds[hub] + 1 + ahead));
  for (const IndexPair& t : tiles) {
    noc_async_write(src_l1 + t.first * kBf16TileBytes, x.hub_noc(hub, x.land[hub] + t.second * kBf16TileBytes),
                    kBf16TileBytes);
  }
  noc_async_write_barrier();
  noc_semaphore_inc(x.hub_noc(hub, x.sem_gather), 1);
}

// Hub 0: wait for `contributors` more contributions (no multicast).
inline void hub_gather(Ctx& x, uint32_t contributors) {
  // the NCRISC of a seed hub counts too: its own waits are cumulative over every gather
  if (!x.hub || x.hub_index != 0 || !(kProc == Proc::brisc || (x.seed() && kProc == Proc::ncrisc))) return;
  x.gathered[0] += contributors;
  if (kProc == Proc::brisc) noc_semaphore_wait_min(l1_word(x.sem_gather), x.gathered[0]);
}

// One multicast round of a hub, run by the hub and every compute core at the same point of the
// walk. The hub waits for `contributors` contributions and a ready credit from every compute core,
// then multicasts `pages` from `from` (its landing ring when 0) into cb_a of every core at page
// `a_page` and raises its round semaphore; `dram_out` (hub 0) writes the pages to that bf16 tile
// buffer as well. Seed: the hub's NCRISC sends the first half on NoC 0 and reports it on
// sem_hub_done, the BRISC the second half on NoC 1 (a round from another source is the BRISC's
// alone). Onehub: the BRISC sends it all.
struct HubRound {
  uint32_t hub = 0;
  uint32_t contributors = 0;
  uint32_t pages = 0;
  uint32_t from = 0;
  uint32_t a_page = 0;
  uint32_t dram_out = 0;
  uint32_t land_page = 0;  // where the gather landed in the ring (when `from` is 0)
  bool to_part = false;    // into cb_part of the compute cores only (seed LayerNorm statistics)
};

// The hub's part of a round: wait for the gather and the credits, multicast, announce.
inline void hub_send(Ctx& x, const HubRound& r) {
  const uint32_t h = r.hub;
  const bool split = x.seed() && r.from == 0;
  x.gathered[h] += r.contributors;
  if (kProc == Proc::ncrisc && !split) return;
  DeviceZoneScopedN("multicast");
  DeviceTimestampedData(DIT_ROUND_RECORD, round_tag(h, x.rounds[h]));
  noc_semaphore_wait_min(l1_word(x.sem_gather), x.gathered[h]);
  // every compute core has room for the round: the previous one in that cb_a window is consumed
  noc_semaphore_wait_min(l1_word(x.sem_ready[h]), x.rounds[h] * NAMED("n_compute"));
  const uint32_t from = r.from ? r.from : x.land[h] + r.land_page * kBf16TileBytes;
  if (r.to_part) {
    // the compute cores only, through the rectangles that cover them, two per data mover
    const uint32_t part = get_common_arg_val<uint32_t>(NAMED("k4_cb_part_address_index"));
    const uint32_t rects = NAMED("k4_compute_rects_base");
    for (uint32_t i = kProc == Proc::ncrisc ? 0 : 1; i < get_common_arg_val<uint32_t>(rects); i += 2) {
      const uint32_t rect = get_common_arg_val<uint32_t>(rects + 1 + i);  // start | end << 16
      const uint32_t x0 = packed_x(rect), y0 = packed_y(rect), x1 = packed_x(rect >> 16), y1 = packed_y(rect >> 16);
      noc_async_write_multicast(from, mcast_noc_addr(x0, y0, x1, y1, part), r.pages * kBf16TileBytes,
                                (x1 - x0 + 1) * (y1 - y0 + 1));
    }
  } else {
    const uint32_t half = split ? r.pages / 2 : 0;
    const uint32_t first = kProc == Proc::ncrisc ? 0 : half;
    const uint32_t count = kProc == Proc::ncrisc ? half : r.pages - half;
    const uint32_t a_base = get_write_ptr(x.cb_a) + r.a_page * kBf16TileBytes;
    noc_async_write_multicast(from + first * kBf16TileBytes, mcast_rect(a_base + first * kBf16TileBytes),
                              count * kBf16TileBytes, mcast_receivers());
  }
  if (r.dram_out && kProc == Proc::brisc) {
    const InterleavedAddrGen<true> out = {.bank_base_address = r.dram_out, .page_size = kBf16TileBytes};
    for (uint32_t p = 0; p < r.pages; ++p) noc_async_write(from + p * kBf16TileBytes, out.get_noc_addr(p), kBf16TileBytes);
  }
  noc_async_write_barrier();
  if (kProc == Proc::ncrisc) {
    noc_semaphore_set(l1_word(x.sem_hub_done), x.rounds[h]);
    return;
  }
  if (split) noc_semaphore_wait_min(l1_word(x.sem_hub_done), x.rounds[h]);
  const uint32_t sem = x.sem_round[h];
  noc_semaphore_set(l1_word(sem), x.rounds[h]);
  noc_semaphore_set_multicast(sem, mcast_rect(sem), mcast_receivers());
}

inline void hub_round(Ctx& x, const HubRound& r) {
  const bool hub_side = x.hub && x.hub_index == r.hub;
  const bool takes_part =
      kProc == Proc::brisc ? (hub_side || x.compute) : (hub_side && x.seed() && kProc == Proc::ncrisc);
  if (!takes_part) return;
  ++x.rounds[r.hub];
  if (hub_side) hub_send(x, r);
}

// Compute BRISC: a ready credit to hub `hub`, and the wait for that hub's next round.
inline void credit_hub(const Ctx& x, uint32_t hub) { noc_semaphore_inc(x.hub_noc(hub, x.sem_ready[hub]), 1); }
inline void await_round(const Ctx& x, uint32_t hub) { noc_semaphore_wait_min(l1_word(x.sem_round[hub]), x.rounds[hub]); }

// A round of hub 0 into the whole cb_a, which every compute BRISC reserves whole, credits and
// pushes once it arrived. Whoever reads the round (TRISC for matmul inputs, the BRISC for K / V
// and residual rows) pops cb_a.
inline void mcast_round(Ctx& x, uint32_t contributors, uint32_t pages, uint32_t source = 0, uint32_t dram_out = 0) {
  hub_round(x, {0, contributors, pages, source, 0, dram_out});
  if (!on_brisc(x)) return;
  DeviceZoneScopedN("round");
  DeviceTimestampedData(DIT_ROUND_RECORD, round_tag(0, x.rounds[0]));
  cb_reserve_back(x.cb_a, kCbAPages);
  credit_hub(x, 0);
  await_round(x, 0);
  cb_push_back(x.cb_a, kCbAPages);
}

#endif  // !defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
