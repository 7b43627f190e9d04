#pragma once
// What one processor of one core knows while it runs the DiT kernel: the processor it was compiled
// for, its role, the CB ids and semaphore addresses it reads from the named compile-time args, and
// the running counts of the protocol (multicast rounds, gathered contributions, exchange credits)
// that each processor tracks for itself, because every processor of every core walks the same phase
// sequence.
#include <stdint.h>

#include "block_schedule.hpp"
#include "io_table.hpp"
#include "op_geometry.hpp"
#include "program_shape.hpp"
#include "tile_builders.hpp"
#if __has_include("ditmk/risc_l1.h")
#include "ditmk/risc_l1.h"
#endif

namespace ditmk::tt::kernel {

// The processor this object was compiled for: tt-metal's JIT builds the kernel once per processor.
enum class Proc : uint32_t { brisc, ncrisc, trisc };
#if defined(COMPILE_FOR_TRISC)
inline constexpr Proc kProc = Proc::trisc;
#elif defined(COMPILE_FOR_NCRISC)
inline constexpr Proc kProc = Proc::ncrisc;
#else
inline constexpr Proc kProc = Proc::brisc;
#endif

// tt-metal's JIT builds the compute API for TRISC and the dataflow API for the data movers only, so
// each side's statements sit inside its macro and the other side's build never sees them (as
// tt-metal's own MATH(...) and PACK(...) keep a statement to one TRISC).
#if defined(COMPILE_FOR_TRISC)
#define ON_COMPUTE(...) __VA_ARGS__
#define ON_MOVERS(...)
#else
#define ON_COMPUTE(...)
#define ON_MOVERS(...) __VA_ARGS__
#endif

inline constexpr uint32_t kCbAPages = 128;    // cb_a is always reserved whole: the multicast lands at its base
inline constexpr uint32_t kLandPages = 256;   // cb_land, reserved whole when the hub's TRISC reads it
inline constexpr uint32_t kChunkPages = 64;   // seed FF2 ring: a [64, 1024] chunk of the FF1 output
// Seed LayerNorm statistics: per tile row, the row sums of x and of x^2 of the 48 cores, 8 fp32
// tiles at the end of hub 1's landing ring (no other round lands there).
inline constexpr uint32_t kStatsPages = 16;
inline constexpr uint32_t kStatsLandPage = kLandPages - kStatsPages;
inline constexpr uint32_t kPartPages = 16;    // cb_part, reserved whole per exchange
inline constexpr uint32_t kTailPages = 48;    // cb_tw: one fixed transaction per tail op
inline constexpr uint32_t kKBlockPages = 16;  // 8 K tiles x 2 N tiles
inline constexpr uint32_t kRowTiles = 48;     // tiles of one [32, 1536] row of the residual
inline constexpr uint32_t kHeadTiles = 64;    // tiles per row of the head-padded [64, 2048] attention layout
// cb_const tiles (bf16) and cb_stat tiles (fp32)
inline constexpr uint32_t kIdentTile = 0, kHalfIdentTile = 1, kColumn0Tile = 2;  // cb_ones holds the ones tile
inline constexpr uint32_t kInvWidthTile = 0, kBlockEpsTile = 1;
// cb_kt tiles (bf16): column moves 0 -> 1 and 0 -> 2, masked fills beyond 2 and 3 columns
inline constexpr uint32_t kMove01Tile = 0, kMove02Tile = 1, kFillFrom2Tile = 2, kFillFrom3Tile = 3;

// A named compile-time arg, evaluated by the compiler. tt-metal's get_named_compile_time_arg_val is
// a constexpr search of the name table, evaluated at compile time only where its value lands in a
// constexpr variable; anywhere else the RISC would search the table at run time.
#define NAMED(name) ([] { constexpr uint32_t value = get_named_compile_time_arg_val(name); return value; }())
// The same as a callable, for the geometry headers the host shares (they take any `named(name)`);
// used only inside constant expressions.
inline constexpr auto kNamedArg = [](const char* name) { return get_named_compile_time_arg_val(name); };

// A core's NoC coordinates as the plan packs them into the common args: x | y << 8.
inline uint32_t packed_x(uint32_t xy) { return xy & 0xFF; }
inline uint32_t packed_y(uint32_t xy) { return xy >> 8 & 0xFF; }

#if !defined(COMPILE_FOR_TRISC)
// A multicast to the rectangle of cores [x0, x1] x [y0, y1]: NoC 1 runs the other way, so a
// kernel on it names the rectangle from its end corner.
inline uint64_t mcast_noc_addr(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, uint32_t address) {
  return noc_index == 0 ? get_noc_multicast_addr(x0, y0, x1, y1, address) : get_noc_multicast_addr(x1, y1, x0, y0, address);
}
#endif

// Bytes of L1 this data mover loaded or stored through pointers: the emulated chip times them (it
// cannot see them); a chip build has no such header and spends the RISC's cycles instead.
inline void pointer_l1_bytes(uint32_t bytes) {
#if __has_include("ditmk/risc_l1.h")
  ditmk::risc_l1_bytes(bytes);
#else
  (void)bytes;
#endif
}

// An L1 word through the kernel's pointer to it.
inline volatile uint32_t* l1_word(uint32_t address) { return reinterpret_cast<volatile uint32_t*>(uintptr_t(address)); }
inline void* l1_bytes(uint32_t address) { return reinterpret_cast<void*>(uintptr_t(address)); }

// The compute engine's configuration the last init left, so that each tile call runs after its
// own init (and a format reconfiguration where the operands change).
enum class ComputeOp : uint32_t { none, matmul, add, sub, mul, sub_cols, mul_cols, mul_rows, copy, transpose, reduce_max_row };

struct Ctx {
  bool onehub = false;                // the protocol (named arg k4_onehub)
  bool compute = false, hub = false;  // hub: a hub with work in this protocol
  uint32_t hub_index = 0;             // 0: the hub of every round; 1: the second hub (seed: FF2 chunks)
  uint32_t c = 0, row = 0, col = 0, head = 0, group = 0;  // compute cores only
  uint32_t quarter = 0, pair = 0;                          // K quarter and column pair of out / ff2
  uint32_t nt = 0;                                         // action column tiles
  ArenaDims dims;
  BlockSchedule schedule;
  uint32_t hub_x[2] = {}, hub_y[2] = {};
  // CB ids
  uint32_t cb_x, cb_a, cb_w, cb_mm0, cb_q, cb_o, cb_bias0, cb_bias1, cb_adaln, cb_mask, cb_k, cb_v, cb_kt, cb_scores,
      cb_tw, cb_tconst, cb_h, cb_part, cb_stat, cb_stat32, cb_const, cb_s, cb_oacc, cb_m0, cb_m1, cb_l0, cb_l1,
      cb_alpha, cb_ones;
  uint32_t cb_act, cb_vel, cb_xin, cb_hconst, cb_land, cb_xbf;
  uint32_t cb_k_base = 0, cb_v_base = 0;  // the same L1 address on every compute core
  // semaphore addresses; the per-hub ones indexed by hub
  uint32_t sem_credit = 0, sem_arrival = 0, sem_gather = 0, sem_kv = 0, sem_hub_done = 0;
  uint32_t sem_ready[2] = {}, sem_round[2] = {}, sem_land[2] = {};
  // protocol counts, per hub: rounds multicast, contributions gathered
  uint32_t rounds[2] = {}, gathered[2] = {};
  uint32_t credits = 0, arrivals = 0;
  uint32_t kv_arrivals = 0;    // K and V writes a head core has counted on sem_kv
  uint32_t head_k_chunks = 0;  // 4-tile windows pushed into a head core's cb_k / cb_v so far
  uint32_t land[2] = {};       // the hubs' cb_land, published by each hub at start
  uint32_t compute_noc_base = 0;  // K4's compute-core table in the common args
  // What cb_x holds: this core's whole tile row of the residual (the host's upload, the rounds that
  // refresh it), or only its own tile (seed, once updated in place).
  bool x_row = true;
  // TRISC: what the last compute init configured, and the CB the packer last wrote
  ComputeOp op = ComputeOp::none;
  uint32_t op_a = 0, op_b = 0, pack_cb = UINT32_MAX;

  uint32_t x_own() const { return x_row ? col : 0; }
  uint32_t x_pages() const { return x_row ? kRowTiles : 1; }
  bool seed() const { return !onehub; }
  uint32_t io(uint32_t index) const { return get_common_arg_val<uint32_t>(index); }  // an io tensor's address
  uint32_t io(Io slot) const { return io(uint32_t(slot)); }
  // The step the tables are read for: the common arg after the io addresses (block / step).
  uint32_t step_index() const { return get_common_arg_val<uint32_t>(NAMED("n_io_tensors")); }
  uint32_t op_offset(uint32_t op_index) const {  // from the offsets table in the common args
    return get_common_arg_val<uint32_t>(NAMED("offsets_table_base") + op_index);
  }
#if !defined(COMPILE_FOR_TRISC)
  uint64_t hub_noc(uint32_t hub_idx, uint32_t address) const {
    return get_noc_addr(hub_x[hub_idx], hub_y[hub_idx], address);
  }
  uint64_t compute_noc(uint32_t compute_idx, uint32_t address) const {
    const uint32_t xy = get_common_arg_val<uint32_t>(compute_noc_base + compute_idx / 2) >> (16 * (compute_idx % 2)) & 0xFFFF;
    return get_noc_addr(packed_x(xy), packed_y(xy), address);
  }
#endif

  Ctx() {
    onehub = NAMED("k4_onehub") != 0;
    compute = NAMED("is_compute") != 0;
    // K4 sets is_hub on both hubs; the per-core group word tells them apart. The simplified
    // protocol leaves the second hub idle.
    if (NAMED("is_hub") != 0) {
      hub_index = get_arg_val<uint32_t>(4);
      hub = seed() || hub_index == 0;
    }
    if (compute) {
      c = get_arg_val<uint32_t>(0);
      row = c / kRowTiles, col = c % kRowTiles;
      head = get_arg_val<uint32_t>(3), group = get_arg_val<uint32_t>(4);
      quarter = 2 * row + col % 2, pair = col / 2;
    }
    nt = NAMED("k4_nt_a");
    compute_noc_base = NAMED("k4_compute_noc_base");
    constexpr ArenaDims kDims = arena_dims(kNamedArg);
    constexpr BlockSchedule kSchedule = block_schedule(kNamedArg);
    dims = kDims, schedule = kSchedule;
    hub_x[0] = NAMED("hub_noc_x"), hub_x[1] = NAMED("hub1_noc_x");
    hub_y[0] = NAMED("hub_noc_y"), hub_y[1] = NAMED("hub1_noc_y");
    cb_x = NAMED("cb_x"), cb_a = NAMED("cb_a"), cb_w = NAMED("cb_w"), cb_mm0 = NAMED("cb_mm0");
    cb_q = NAMED("cb_q"), cb_o = NAMED("cb_o"), cb_bias0 = NAMED("cb_bias0"), cb_bias1 = NAMED("cb_bias1");
    cb_adaln = NAMED("cb_adaln_raw"), cb_mask = NAMED("cb_mask"), cb_k = NAMED("cb_k"), cb_v = NAMED("cb_v");
    cb_kt = NAMED("cb_kt"), cb_scores = NAMED("cb_scores"), cb_tw = NAMED("cb_tw"), cb_tconst = NAMED("cb_tconst");
    cb_h = NAMED("cb_h"), cb_part = NAMED("cb_part"), cb_stat = NAMED("cb_stat"), cb_stat32 = NAMED("cb_stat32");
    cb_const = NAMED("cb_const"), cb_s = NAMED("cb_s"), cb_oacc = NAMED("cb_oacc");
    cb_m0 = NAMED("cb_m0"), cb_m1 = NAMED("cb_m1"), cb_l0 = NAMED("cb_l0"), cb_l1 = NAMED("cb_l1");
    cb_alpha = NAMED("cb_alpha"), cb_ones = NAMED("cb_ones");
    cb_act = NAMED("k4_cb_act"), cb_vel = NAMED("k4_cb_vel"), cb_xin = NAMED("k4_cb_xin");
    cb_hconst = NAMED("k4_cb_hconst"), cb_land = NAMED("k4_cb_land"), cb_xbf = NAMED("k4_cb_xbf");
#if !defined(COMPILE_FOR_TRISC)
    // every launch starts with the CB pointers at the base: remote writers of cb_k / cb_v need it
    if (compute) cb_k_base = get_write_ptr(cb_k), cb_v_base = get_write_ptr(cb_v);
    if (hub) land[hub_index] = get_write_ptr(cb_land);
    // Direct mode leaves the reader semaphores free: sem_credit grants exchange credits and
    // sem_gather_noc1 counts exchange arrivals; sem_sync carries hub 0's landing-ring base.
    sem_credit = get_semaphore(NAMED("sem_credit"));
    sem_arrival = get_semaphore(NAMED("sem_gather_noc1"));
    sem_gather = get_semaphore(NAMED("sem_gather_noc0"));
    sem_kv = get_semaphore(NAMED("sem_kv"));
    sem_hub_done = get_semaphore(NAMED("sem_hub_done"));
    sem_ready[0] = get_semaphore(NAMED("sem_mcast_sender")), sem_ready[1] = get_semaphore(NAMED("sem_ready_odd"));
    sem_round[0] = get_semaphore(NAMED("sem_mcast_receiver")), sem_round[1] = get_semaphore(NAMED("sem_mcast_receiver1"));
    sem_land[0] = get_semaphore(NAMED("sem_sync")), sem_land[1] = get_semaphore(NAMED("sem_land1"));
#endif
  }
};

// Which processor of which core this is: a data mover's or compute processor's share of a phase.
inline bool on_trisc(const Ctx& x) { return x.compute && kProc == Proc::trisc; }
inline bool on_brisc(const Ctx& x) { return x.compute && kProc == Proc::brisc; }
inline bool on_ncrisc(const Ctx& x) { return x.compute && kProc == Proc::ncrisc; }
// hub 0, which also runs the Euler update
inline bool on_hub_brisc(const Ctx& x) { return x.hub && x.hub_index == 0 && kProc == Proc::brisc; }
inline bool on_hub_trisc(const Ctx& x) { return x.hub && x.hub_index == 0 && kProc == Proc::trisc; }

}  // namespace ditmk::tt::kernel
