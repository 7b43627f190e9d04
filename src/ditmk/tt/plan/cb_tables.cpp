#include "ditmk/tt/plan/cb_tables.hpp"

#include "ditmk/core/error.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt {

const IdTable& k1_cb_ids() {
  // Reader-only cb_relay and hub-only cb_act / cb_sa reuse 14 / 15 on disjoint cores.
  static const IdTable ids = {{"cb_x", 0},      {"cb_a", 1},     {"cb_w", 2},       {"cb_mm0", 3},   {"cb_mm1", 4},
                              {"cb_o", 5},      {"cb_bias0", 6}, {"cb_bias1", 7},   {"cb_adaln", 8}, {"cb_mask", 9},
                              {"cb_k", 10},     {"cb_v", 11},    {"cb_kv_ring", 12}, {"cb_scores", 13},
                              {"cb_relay", 14}, {"cb_act", 14},  {"cb_sa", 15}};
  return ids;
}

const IdTable& k4_cb_ids() {
  static const IdTable ids = {
      {"cb_x", 0},       {"cb_a", 1},       {"cb_w", 2},      {"cb_mm0", 3},   {"cb_q", 4},      {"cb_o", 5},
      {"cb_bias0", 6},   {"cb_bias1", 7},   {"cb_adaln_raw", 8}, {"cb_mask", 9}, {"cb_k", 10},     {"cb_v", 11},
      {"cb_kt", 12},     {"cb_scores", 13}, {"cb_tw", 14},    {"cb_tconst", 15}, {"cb_h", 16},   {"cb_part", 17},
      {"cb_stat", 18},   {"cb_stat32", 19}, {"cb_const", 21}, {"cb_zero", 23}, {"cb_ones", 24},  {"cb_s", 25},
      {"cb_oacc", 26},   {"cb_m0", 27},     {"cb_m1", 28},    {"cb_l0", 29},   {"cb_l1", 30},    {"cb_alpha", 31}};
  return ids;
}

const IdTable& k4_hub_cb_ids() {
  // cb_act shares id 19 with the compute cores' cb_stat32: the unpack-to-dest mode list is
  // program-wide, and both are read as exact fp32.
  static const IdTable ids = {{"cb_act", 19},   {"cb_vel", 16},     {"cb_xin", 17},      {"cb_hconst", 18},
                              {"cb_hacc", 20},  {"cb_tok_in", 21},  {"cb_tok_out", 22},  {"cb_xbf", 23},
                              {"cb_land", 24}};
  return ids;
}

const IdTable& semaphore_ids() {
  static const IdTable ids = {{"sem_w", 0},           {"sem_credit", 1},        {"sem_kv", 2},
                              {"sem_mcast_sender", 3}, {"sem_mcast_receiver", 4}, {"sem_gather_noc0", 5},
                              {"sem_gather_noc1", 6},  {"sem_ring_credit", 7},   {"sem_sync", 8},
                              {"sem_hub_done", 9},     {"sem_ready_odd", 10},    {"sem_mcast_receiver1", 11},
                              {"sem_land1", 12}};
  return ids;
}

int default_cb_w_slots(Kernel kernel, TileFormat stream) {
  if (stream == TileFormat::bfp8_b) return 15;
  return kernel == Kernel::k1 ? 9 : 13;
}

namespace {

int id_of(const IdTable& table, std::string_view name) {
  for (const auto& [n, id] : table) {
    if (n == name) return id;
  }
  fail("no CB id for '{}'", name);
}

uint32_t cb_w_bytes(const ArenaLayout& layout, int slots) {
  require(slots > 0, "cb_w slots {} must be positive", slots);
  uint64_t bytes = uint64_t(slots) * layout.stream_k_block_bytes();
  require(bytes <= UINT32_MAX, "cb_w of {} slots is {} B, beyond any L1", slots, bytes);
  return uint32_t(bytes);
}

constexpr uint32_t kBf16Tile = 2048;
constexpr uint32_t kFp32Tile = 4096;

}  // namespace

std::vector<CBSpec> k1_cbs(const ArenaLayout& layout, int cb_w_slots) {
  const IdTable& ids = k1_cb_ids();
  const uint32_t b = kBf16Tile, f = kFp32Tile;
  const uint32_t stream_tile = uint32_t(tile_bytes(layout.dtype_stream));
  auto cb = [&](const char* name, const char* set, uint32_t total, uint32_t page, TileFormat format,
                const char* backing = "") {
    return CBSpec{name, id_of(ids, name), set, total, page, format, backing};
  };
  const TileFormat bf = TileFormat::bf16, fp = TileFormat::fp32;
  return {
      cb("cb_x", "compute", 64 * 1536 * 2, b, bf, "x_rep"),  // the replicated [64,1536] residual
      // max of the LN output (192 KB), the padded attention output (256 KB) and the FF2 ring halves
      cb("cb_a", "all", 64 * 2048 * 2, b, bf, "a_rep"),
      cb("cb_w", "compute", cb_w_bytes(layout, cb_w_slots), stream_tile, layout.dtype_stream),
      cb("cb_mm0", "compute", 4 * b, b, bf),
      cb("cb_mm1", "compute", 4 * b, b, bf),
      cb("cb_o", "compute", 4 * b, b, bf),
      cb("cb_bias0", "compute", 2 * b, b, bf),
      cb("cb_bias1", "compute", 2 * b, b, bf),
      cb("cb_adaln", "compute", 16 * 1024, b, bf),
      cb("cb_mask", "compute", 4 * b + 2 * 4 * b, b, bf),  // self [64,64] + 2 cross chunks
      cb("cb_k", "compute", 4 * b, b, bf),
      cb("cb_v", "compute", 4 * b, b, bf),
      cb("cb_kv_ring", "compute", 2 * 8 * b, b, bf),  // 2 x (K^T and V of a 64-key chunk)
      cb("cb_scores", "compute", 2 * 4 * f, f, fp),
      cb("cb_relay", "readers", uint32_t(kRelaySlots * layout.stream_k_block_bytes()), stream_tile, layout.dtype_stream),
      cb("cb_act", "hub", uint32_t(layout.m_pad * layout.a_pad * 4), f, fp),
      cb("cb_sa", "hub", 64 * 1536 * 2, b, bf),
  };
}

std::vector<CBSpec> k4_cbs(const ArenaLayout& layout, int cb_w_slots) {
  require(layout.dtype_small == TileFormat::bf16, "K4 streams the tail ops as bf16 tiles, not {}",
          tile_format_name(layout.dtype_small));
  require(layout.a_pad % kTile == 0, "a_pad {} is not a tile multiple", layout.a_pad);
  const IdTable& ids = k4_cb_ids();
  const IdTable& hub_ids = k4_hub_cb_ids();
  const uint32_t b = kBf16Tile, f = kFp32Tile;
  const uint32_t nt = uint32_t(layout.a_pad / kTile);  // action column tiles: 1 / 4 / 5
  const uint32_t stream_tile = uint32_t(tile_bytes(layout.dtype_stream));
  const TileFormat bf = TileFormat::bf16, fp = TileFormat::fp32;
  auto cb = [&](const char* name, uint32_t total, uint32_t page, TileFormat format, const char* backing = "") {
    return CBSpec{name, id_of(ids, name), "compute", total, page, format, backing};
  };
  auto hub = [&](const char* name, uint32_t total, uint32_t page, TileFormat format) {
    return CBSpec{name, id_of(hub_ids, name), "hubs", total, page, format, ""};
  };
  std::vector<CBSpec> cbs = {
      cb("cb_x", uint32_t(layout.width / kTile) * b, b, bf, "x_rep"),  // own tile row [32,1536]
      CBSpec{"cb_a", id_of(ids, "cb_a"), "all", 64 * 2048 * 2, b, bf, "a_rep"},
      cb("cb_w", cb_w_bytes(layout, cb_w_slots), stream_tile, layout.dtype_stream),
      cb("cb_mm0", 8 * b, b, bf),  // 2 slots of 4 pages
      cb("cb_q", 4 * b, b, bf),
      cb("cb_o", 4 * b, b, bf),
      cb("cb_bias0", 4 * b, b, bf),
      cb("cb_bias1", 4 * b, b, bf),
      cb("cb_adaln_raw", 2 * 2 * b, b, bf),  // 2 slots of the (1+s, b) row-broadcast pair
      cb("cb_mask", kK4SdpaSlots * 4 * b, b, bf),
      cb("cb_k", kK4SdpaSlots * 4 * b, b, bf),
      cb("cb_v", kK4SdpaSlots * 4 * b, b, bf),
      cb("cb_kt", 4 * b, b, bf),
      cb("cb_scores", 8 * f, f, fp),
      cb("cb_tw", kK4TailTiles * b, b, bf),
      cb("cb_tconst", kK4TconstTiles * b, b, bf),
      cb("cb_h", 4 * b, b, bf),
      cb("cb_part", kK4PartPages * f, f, fp),
      cb("cb_stat", 2 * f, f, fp),
      cb("cb_stat32", f, f, fp),
      cb("cb_const", 3 * b, b, bf),
      cb("cb_zero", b, b, bf),
      cb("cb_ones", b, b, bf),
      cb("cb_s", 4 * f, f, fp),
      cb("cb_oacc", 4 * f, f, fp),
      cb("cb_m0", 2 * f, f, fp),
      cb("cb_m1", 2 * f, f, fp),
      cb("cb_l0", 2 * f, f, fp),
      cb("cb_l1", 2 * f, f, fp),
      cb("cb_alpha", 2 * f, f, fp),
      hub("cb_act", 2 * nt * f, f, fp),
      hub("cb_vel", kSteps * 2 * nt * b, b, bf),
      hub("cb_xin", 2 * nt * b, b, bf),
      hub("cb_hconst", (3 * nt + 1) * b, b, bf),
      hub("cb_hacc", f, f, fp),
      hub("cb_tok_in", 2 * b, b, bf),
      hub("cb_tok_out", 2 * b, b, bf),
      hub("cb_xbf", 2 * nt * b, b, bf),
      hub("cb_land", kK4LandPages * b, b, bf),
  };
  return cbs;
}

}  // namespace ditmk::tt
