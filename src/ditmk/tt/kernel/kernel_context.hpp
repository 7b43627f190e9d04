#pragma once
// What one processor of one core knows while it runs the DiT kernel: its role, the CB ids and
// addresses it reads from the named compile-time args, and the running counts of the protocol
// (multicast rounds, gathered contributions, exchange credits) that each processor tracks for
// itself, because every processor of every core walks the same phase sequence.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ditmk/tt/emu/device_api.hpp"
#include "ditmk/tt/kernel/block_schedule.hpp"
#include "ditmk/tt/kernel/io_table.hpp"
#include "ditmk/tt/kernel/masked_score.hpp"
#include "ditmk/tt/kernel/program_shape.hpp"
#include "ditmk/tt/kernel/op_geometry.hpp"

namespace ditmk::tt::kernel {

constexpr uint32_t kNotApplicable = 0xFFFF;
constexpr uint32_t kCbAPages = 128;    // cb_a is always reserved whole: the multicast lands at its base
constexpr uint32_t kLandPages = 256;   // cb_land, reserved whole when the hub's TRISC reads it
constexpr uint32_t kChunkPages = 64;   // seed FF2 ring: a [64, 1024] chunk of the FF1 output
// Seed LayerNorm statistics: per tile row, the row sums of x and of x^2 of the 48 cores, 8 fp32
// tiles at the end of hub 1's landing ring (no other round lands there).
constexpr uint32_t kStatsPages = 16;
constexpr uint32_t kStatsLandPage = kLandPages - kStatsPages;
constexpr uint32_t kPartPages = 16;    // cb_part, reserved whole per exchange
constexpr uint32_t kTailPages = 48;    // cb_tw: one fixed transaction per tail op
constexpr uint32_t kKBlockPages = 16;  // 8 K tiles x 2 N tiles
constexpr uint32_t kRowTiles = 48;     // tiles of one [32, 1536] row of the residual
// cb_const tiles (bf16) and cb_stat tiles (fp32)
constexpr uint32_t kIdentTile = 0, kHalfIdentTile = 1, kColumn0Tile = 2;  // cb_ones holds the ones tile
constexpr uint32_t kInvWidthTile = 0, kBlockEpsTile = 1;
// cb_kt tiles (bf16): column moves 0 -> 1 and 0 -> 2, masked fills beyond 2 and 3 columns
constexpr uint32_t kMove01Tile = 0, kMove02Tile = 1, kFillFrom2Tile = 2, kFillFrom3Tile = 3;

uint32_t named(const char* name);  // a named compile-time arg

// A core's NoC coordinates as the plan packs them into the common args: x | y << 8.
inline uint32_t packed_x(uint32_t xy) { return xy & 0xFF; }
inline uint32_t packed_y(uint32_t xy) { return xy >> 8 & 0xFF; }

struct Ctx {
  emu::Processor proc;
  bool onehub = false;                // the protocol (named arg k4_onehub)
  bool compute = false, hub = false;  // hub: a hub with work in this protocol
  uint32_t hub_index = 0;             // 0: the hub of every round; 1: the second hub (seed: FF2 chunks)
  uint32_t c = 0, row = 0, col = 0, head = 0, group = 0;  // compute cores only
  uint32_t quarter = 0, pair = 0;                          // K quarter and column pair of out / ff2
  uint32_t nt = 0;                                         // action column tiles
  ArenaDims dims;
  BlockSchedule schedule;
  std::array<uint32_t, 2> hub_x{}, hub_y{};
  // CB ids
  uint32_t cb_x, cb_a, cb_w, cb_mm0, cb_q, cb_o, cb_bias0, cb_bias1, cb_adaln, cb_mask, cb_k, cb_v, cb_kt, cb_scores,
      cb_tw, cb_tconst, cb_h, cb_part, cb_stat, cb_stat32, cb_const, cb_s, cb_oacc, cb_m0, cb_m1, cb_l0, cb_l1,
      cb_alpha, cb_ones;
  uint32_t cb_act, cb_vel, cb_xin, cb_hconst, cb_land, cb_xbf;
  uint32_t cb_k_base = 0, cb_v_base = 0;  // the same L1 address on every compute core
  // semaphore addresses; the per-hub ones indexed by hub
  uint32_t sem_credit, sem_arrival, sem_gather, sem_kv, sem_hub_done;
  std::array<uint32_t, 2> sem_ready{}, sem_round{}, sem_land{};
  // protocol counts, per hub: rounds multicast, contributions gathered
  std::array<uint32_t, 2> rounds{}, gathered{};
  uint32_t credits = 0, arrivals = 0;
  uint32_t kv_arrivals = 0;   // K and V writes a head core has counted on sem_kv
  uint32_t head_k_chunks = 0;  // 4-tile windows pushed into a head core's cb_k / cb_v so far
  std::array<uint32_t, 2> land{};  // the hubs' cb_land, published by each hub at start
  // What cb_x holds: this core's whole tile row of the residual (the host's upload, the rounds that
  // refresh it), or only its own tile (seed, once updated in place).
  bool x_row = true;
  uint32_t x_own() const { return x_row ? col : 0; }
  uint32_t x_pages() const { return x_row ? kRowTiles : 1; }

  Ctx();
  bool is(emu::Processor p) const { return proc == p; }
  bool seed() const { return !onehub; }
  uint32_t io(uint32_t index) const { return emu::get_common_arg_val(index); }  // an io tensor's address
  uint32_t io(Io slot) const { return io(uint32_t(slot)); }
  // The step the tables are read for: the common arg after the io addresses (block / step).
  uint32_t step_index() const { return emu::get_common_arg_val(named("n_io_tensors")); }
  uint32_t op_offset(uint32_t op_index) const;  // from the offsets table in the common args
  uint64_t hub_noc(uint32_t hub_idx, uint32_t address) const {
    return emu::get_noc_addr(hub_x[hub_idx], hub_y[hub_idx], address);
  }
  uint64_t compute_noc(uint32_t compute_idx, uint32_t address) const;
  uint32_t compute_noc_base = 0;  // K4's compute-core table in the common args (named args, read once)
};


}  // namespace ditmk::tt::kernel
