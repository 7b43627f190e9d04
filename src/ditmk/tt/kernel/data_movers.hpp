#pragma once
// The data-movement half of the DiT kernel (NCRISC and BRISC): weight streaming, hub gather and
// multicast rounds, exchanges of fp32 partials between compute cores, and the small tiles the
// movers build from DRAM rows (bias, AdaLN, masks).
#include <cstdint>
#include <utility>
#include <vector>

#include "ditmk/tt/kernel/kernel_context.hpp"
#include "ditmk/tt/kernel/tile_builders.hpp"

namespace ditmk::tt::kernel {

// NCRISC: streams this core's slice of `op` from its DRAM bank, K-block by K-block into the cb_w
// ring (stream ops) or as one fixed cb_tw transaction (tail ops). Counts the bytes in the trace.
void stream_slice(Ctx& x, const ArenaOp& op);

// BRISC at start: the constant tiles (compute), the landing-ring base (hub publishes, compute learns).
void setup_constants(Ctx& x);
void publish_landing_ring(Ctx& x);
void learn_landing_ring(Ctx& x);

// A row-broadcast tile of 32 bf16 values at (row, column tile) of a row-major DRAM table.
Bf16Tile read_row_tile(Ctx& x, uint32_t table, uint32_t row_bytes, uint32_t row, uint32_t col_tile);
// A tile whose row i comes from DRAM row rows[i] (or is zero where rows[i] < 0).
Bf16Tile read_rows_tile(Ctx& x, uint32_t table, uint32_t row_bytes, const int* rows, uint32_t col_tile);
// Reserves `window` pages of cb, writes the tiles at its front, pushes the window.
void push_tiles(uint32_t cb, const std::vector<Bf16Tile>& tiles, uint32_t window);

// Writes tiles (offset in tiles from src_l1, destination page) into the hub's landing ring and
// counts this core as one contribution.
void contribute(Ctx& x, uint32_t src_l1, const std::vector<std::pair<uint32_t, uint32_t>>& tiles);

// One hub round, run by the hub and every compute core at the same point of the walk: the hub waits
// for `contributors` contributions, multicasts `pages` from its landing ring (or from `source`) into
// cb_a of every core and raises sem_mcast_receiver; compute BRISCs reserve cb_a whole, report ready
// and push it when the round arrived. Whoever reads the round (TRISC for matmul inputs, the BRISC
// for K / V and residual rows) pops cb_a.
// `dram_out` (hub): write the landed pages to this bf16 tile buffer as well.
void mcast_round(Ctx& x, uint32_t contributors, uint32_t pages, uint32_t source = 0, uint32_t dram_out = 0);
// Hub only: wait for `contributors` more contributions (no multicast).
void hub_gather(Ctx& x, uint32_t contributors);

// BRISC: a symmetric exchange of fp32 tiles into cb_part among `members` (this core included):
// every member reserves its cb_part whole and grants each member a credit; each then sends its
// tiles (offset in tiles from src_l1, destination compute core, destination page) and counts an
// arrival on each member; cb_part is pushed when all members' arrivals are in.
struct PartSend {
  uint32_t src_tile, dst_core, dst_page;
};
void exchange(Ctx& x, const std::vector<uint32_t>& members, uint32_t src_l1, const std::vector<PartSend>& sends);
// The two halves of an exchange, for senders that write from several CB windows in between.
void exchange_open(Ctx& x, const std::vector<uint32_t>& members);
void exchange_close(Ctx& x, const std::vector<uint32_t>& members);

// BRISC after a residual round: this core's tile row of the new residual from cb_a into cb_x.
void refill_residual_row(Ctx& x);

}  // namespace ditmk::tt::kernel
