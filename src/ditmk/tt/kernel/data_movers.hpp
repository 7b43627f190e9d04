#pragma once
// The data-movement half of the DiT kernel (NCRISC and BRISC): weight streaming, hub gather and
// multicast rounds, exchanges of fp32 partials between compute cores, and the small tiles the
// movers build from DRAM rows (bias, AdaLN, masks).
#include <cstdint>

#include "ditmk/tt/kernel/kernel_context.hpp"
#include "ditmk/tt/kernel/op_geometry.hpp"
#include "ditmk/tt/kernel/small_list.hpp"
#include "ditmk/tt/kernel/zone_tags.hpp"
#include "ditmk/tt/kernel/tile_builders.hpp"

namespace ditmk::tt::kernel {

using TileList = SmallList<Bf16Tile, 6>;      // tiles a mover builds for one CB window
using IndexPairs = SmallList<IndexPair, 4>;   // table rows and column tiles; contributed pages
using Members = SmallList<uint32_t, 4>;       // the compute cores of an exchange

// NCRISC: streams this core's slice of a block op from its DRAM bank, K-block by K-block into the
// cb_w ring, or of a tail op as one fixed cb_tw transaction.
void stream_block_op(Ctx& x, uint32_t block, BlockOp op);
void stream_tail_op(Ctx& x, TailOp op);

// BRISC at start: the constant tiles (compute). The hubs publish their landing rings' bases, the
// compute cores learn them.
void setup_constants(Ctx& x);
void publish_landing_ring(Ctx& x);
void learn_landing_rings(Ctx& x);

// Row-broadcast tiles of 32 bf16 values each, at (row, column tile) of a row-major DRAM table: the
// reads go out together and wait for one barrier.
TileList read_row_tiles(Ctx& x, uint32_t table, uint32_t row_bytes, const IndexPairs& rows_and_col_tiles);
// A tile whose row i comes from DRAM row rows[i] (or is zero where rows[i] < 0).
Bf16Tile read_rows_tile(Ctx& x, uint32_t table, uint32_t row_bytes, const int* rows, uint32_t col_tile);
// Reserves `window` pages of cb, writes the tiles at its front, pushes the window.
void push_tiles(uint32_t cb, const TileList& tiles, uint32_t window);
// Copies bytes inside this core's L1 through its own NoC port (a data mover does not copy by hand).
void local_copy(uint32_t src_l1, uint32_t dst_l1, uint32_t bytes);

// Writes tiles (offset in tiles from src_l1, page of the landing ring) into hub `hub`'s landing ring
// and counts this core as one contribution there, to the hub's next round or (`ahead`) a later one.
void contribute(Ctx& x, uint32_t hub, uint32_t src_l1, const IndexPairs& tiles, uint32_t ahead = 0);

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
void hub_round(Ctx& x, const HubRound& round);
// A round of hub 0 into the whole cb_a, which every compute BRISC reserves whole, credits and
// pushes once it arrived. Whoever reads the round (TRISC for matmul inputs, the BRISC for K / V
// and residual rows) pops cb_a.
void mcast_round(Ctx& x, uint32_t contributors, uint32_t pages, uint32_t source = 0, uint32_t dram_out = 0);
// Hub 0: wait for `contributors` more contributions (no multicast).
void hub_gather(Ctx& x, uint32_t contributors);
// Compute BRISC: a ready credit to hub `hub`, and the wait for that hub's next round.
void credit_hub(Ctx& x, uint32_t hub);
void await_round(Ctx& x, uint32_t hub);

// BRISC: a symmetric exchange of fp32 tiles into cb_part among `members` (this core included):
// every member reserves its cb_part whole and grants each member a credit; each then sends its
// tiles (offset in tiles from src_l1, destination compute core, destination page) and counts an
// arrival on each member; cb_part is pushed when all members' arrivals are in.
struct PartSend {
  uint32_t src_tile, dst_core, dst_page;
};
using PartSends = SmallList<PartSend, 16>;
void exchange(Ctx& x, const Members& members, uint32_t src_l1, const PartSends& sends);
// The two halves of an exchange, for senders that write from several CB windows in between.
void exchange_open(Ctx& x, const Members& members);
void exchange_close(Ctx& x, const Members& members);

// BRISC after a residual round: this core's tile row of the new residual from cb_a into cb_x.
void refill_residual_row(Ctx& x);

// Seed LayerNorm statistics: the BRISC sends row 0 of the two partial tiles in cb_scores (sums of
// x and of x^2 for this core's 32 columns) into hub 1's statistics tiles, as row `col` of its tile
// row's tiles; the statistics round then multicasts them into every compute core's cb_part.
void send_ln_stats(Ctx& x);
// BRISC after the encoder's round (seed): this core's own tile of the new residual into cb_x.
void refill_own_tile(Ctx& x);

// Seed, self blocks: the K^T (group 1) or V (group 2) tiles of this core's head from cb_mm0 straight
// into the head core's cb_k / cb_v window, counted on its sem_kv; the head core (group 0) reserves
// both windows and pushes them once both arrived.
void send_head_kv(Ctx& x);
void receive_head_kv(Ctx& x);

}  // namespace ditmk::tt::kernel
