#include "ditmk/tt/kernel/data_movers.hpp"

#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::kernel {

using namespace emu;

namespace {

constexpr uint32_t kRowChunkBytes = 64;  // 32 bf16 values: one column tile of a table row

uint32_t mcast_receivers() { return named("grid_x") * named("grid_y") - 1; }

uint64_t mcast_rect(uint32_t address) {
  return get_noc_multicast_addr(named("mcast_x0"), named("mcast_y0"), named("mcast_x1"), named("mcast_y1"),
                                address);
}

uint32_t read_semaphore(uint32_t address) {
  uint32_t value = 0;
  l1_read(address, &value, sizeof value);
  return value;
}

}  // namespace

void stream_block_op(Ctx& x, uint32_t block, BlockOp op) {
  const OpSlice s = block_op_slice(x.dims, block, op, block_keys(x.schedule, block) != BlockKeys::self, x.c);
  // the offsets table gives the op's region; the slot of this core inside it follows the plan's rule
  const uint32_t address = x.io(Io::arena_stream) + x.op_offset(s.op_index) + s.offset;
  const uint64_t bank = get_noc_addr_from_bank_id(s.bank, 0);
  for (uint32_t kb = 0; kb < s.k_tiles / kKBlockK; ++kb) {
    cb_reserve_back(x.cb_w, kKBlockPages);
    noc_async_read(bank + address + kb * s.k_block_bytes, get_write_ptr(x.cb_w), s.k_block_bytes);
    noc_async_read_barrier();
    cb_push_back(x.cb_w, kKBlockPages);
  }
}

void stream_tail_op(Ctx& x, TailOp op) {
  const OpSlice s = tail_op_slice(x.dims, op, x.c);
  const uint32_t address = x.io(Io::arena_small) + x.op_offset(s.op_index) + s.offset;
  cb_reserve_back(x.cb_tw, kTailPages);
  noc_async_read(get_noc_addr_from_bank_id(s.bank, 0) + address, get_write_ptr(x.cb_tw), s.bytes);
  noc_async_read_barrier();
  cb_push_back(x.cb_tw, kTailPages);
}

void setup_constants(Ctx& x) {
  push_tiles(x.cb_const, {identity_tile(), identity_tile(0.5f), column0_tile()}, 3);
  push_tiles(x.cb_ones, {ones_tile()}, 1);
  // attention's running maximum: moves of a row-max column and the fill that keeps other columns out
  push_tiles(x.cb_kt, {unit_tile(0, 1), unit_tile(0, 2), column_fill_tile(2, kMaskedScore),
                       column_fill_tile(3, kMaskedScore)}, 4);
  const Fp32Tile inv_width = filled_fp32_tile(1.0f / float(x.dims.width));
  const Fp32Tile block_eps = filled_fp32_tile(1e-5f);
  const Fp32Tile head_eps = filled_fp32_tile(1e-6f);
  cb_reserve_back(x.cb_stat, 2);
  l1_write(get_write_ptr(x.cb_stat), inv_width.data(), kFp32TileBytes);
  l1_write(get_write_ptr(x.cb_stat) + kFp32TileBytes, block_eps.data(), kFp32TileBytes);
  cb_push_back(x.cb_stat, 2);
  cb_reserve_back(x.cb_stat32, 1);
  l1_write(get_write_ptr(x.cb_stat32), head_eps.data(), kFp32TileBytes);
  cb_push_back(x.cb_stat32, 1);
}

void publish_landing_ring(Ctx& x) {
  const uint32_t sem = x.sem_land[x.hub_index];
  noc_semaphore_set(sem, x.land[x.hub_index]);
  noc_semaphore_set_multicast(sem, mcast_rect(sem), mcast_receivers());
}

void learn_landing_rings(Ctx& x) {
  for (uint32_t hub = 0; hub < (x.seed() ? 2u : 1u); ++hub) {
    noc_semaphore_wait_min(x.sem_land[hub], 1);
    x.land[hub] = read_semaphore(x.sem_land[hub]);
  }
}

TileList read_row_tiles(Ctx& x, uint32_t table, uint32_t row_bytes, const IndexPairs& rows_and_col_tiles) {
  const uint32_t scratch = get_write_ptr(x.cb_bias1);
  const InterleavedAddrGen rows{table, row_bytes};
  for (uint32_t i = 0; i < rows_and_col_tiles.size(); ++i) {
    const auto [row, col_tile] = rows_and_col_tiles[i];
    noc_async_read(rows.get_noc_addr(row, col_tile * kRowChunkBytes), scratch + uint32_t(i) * kRowChunkBytes,
                   kRowChunkBytes);
  }
  noc_async_read_barrier();
  TileList tiles;
  for (uint32_t i = 0; i < rows_and_col_tiles.size(); ++i) {
    uint16_t values[32];
    l1_read(scratch + uint32_t(i) * kRowChunkBytes, values, kRowChunkBytes);
    tiles.push_back(row_tile(values));
  }
  return tiles;
}

Bf16Tile read_rows_tile(Ctx& x, uint32_t table, uint32_t row_bytes, const int* rows, uint32_t col_tile) {
  const uint32_t scratch = get_write_ptr(x.cb_bias1);
  const InterleavedAddrGen gen{table, row_bytes};
  Bf16Tile tile{};
  for (int r = 0; r < 32; ++r) {
    if (rows[r] < 0) continue;
    noc_async_read(gen.get_noc_addr(uint32_t(rows[r]), col_tile * kRowChunkBytes), scratch, kRowChunkBytes);
    noc_async_read_barrier();
    uint16_t values[32];
    l1_read(scratch, values, kRowChunkBytes);
    for (int c = 0; c < 32; ++c) tile[tile_index(r, c)] = values[c];
  }
  return tile;
}

void push_tiles(uint32_t cb, const TileList& tiles, uint32_t window) {
  cb_reserve_back(cb, window);
  for (uint32_t i = 0; i < tiles.size(); ++i) {
    l1_write(get_write_ptr(cb) + i * kBf16TileBytes, tiles[i].data(), kBf16TileBytes);
  }
  cb_push_back(cb, window);
}

void local_copy(uint32_t src_l1, uint32_t dst_l1, uint32_t bytes) {
  const CoreCoord me = my_core();
  noc_async_read(get_noc_addr(me.x, me.y, src_l1), dst_l1, bytes);
  noc_async_read_barrier();
}

void contribute(Ctx& x, uint32_t hub, uint32_t src_l1, const IndexPairs& tiles,
                uint32_t ahead) {
  // round n of a hub: its gather on the producers, its arrival on the receivers, its multicast on
  // the hub (the timing report measures rounds between them)
  const DeviceZone zone("gather");
  zone_data(kRoundTag, round_tag(hub, x.rounds[hub] + 1 + ahead));
  for (const auto& [offset, page] : tiles) {
    noc_async_write(src_l1 + offset * kBf16TileBytes, x.hub_noc(hub, x.land[hub] + page * kBf16TileBytes),
                    kBf16TileBytes);
  }
  noc_async_write_barrier();
  noc_semaphore_inc(x.hub_noc(hub, x.sem_gather), 1);
}

void hub_gather(Ctx& x, uint32_t contributors) {
  // the NCRISC of a seed hub counts too: its own waits are cumulative over every gather
  if (!x.hub || x.hub_index != 0 || !(x.is(Processor::brisc) || (x.seed() && x.is(Processor::ncrisc)))) return;
  x.gathered[0] += contributors;
  if (x.is(Processor::brisc)) noc_semaphore_wait_min(x.sem_gather, x.gathered[0]);
}

namespace {

// The hub's part of a round: wait for the gather and the credits, multicast, announce.
void hub_send(Ctx& x, const HubRound& r) {
  const uint32_t h = r.hub;
  const bool split = x.seed() && r.from == 0;
  x.gathered[h] += r.contributors;
  if (x.is(Processor::ncrisc) && !split) return;
  const DeviceZone zone("multicast");
  zone_data(kRoundTag, round_tag(h, x.rounds[h]));
  noc_semaphore_wait_min(x.sem_gather, x.gathered[h]);
  // every compute core has room for the round: the previous one in that cb_a window is consumed
  noc_semaphore_wait_min(x.sem_ready[h], x.rounds[h] * named("n_compute"));
  const uint32_t from = r.from ? r.from : x.land[h] + r.land_page * kBf16TileBytes;
  if (r.to_part) {
    // the compute cores only, through the rectangles that cover them, two per data mover
    const uint32_t part = get_common_arg_val(named("k4_cb_part_address_index"));
    const uint32_t rects = named("k4_compute_rects_base");
    for (uint32_t i = x.is(Processor::ncrisc) ? 0 : 1; i < get_common_arg_val(rects); i += 2) {
      const uint32_t rect = get_common_arg_val(rects + 1 + i);  // start | end << 16
      const uint32_t x0 = packed_x(rect), y0 = packed_y(rect), x1 = packed_x(rect >> 16), y1 = packed_y(rect >> 16);
      noc_async_write_multicast(from, get_noc_multicast_addr(x0, y0, x1, y1, part), r.pages * kBf16TileBytes,
                                (x1 - x0 + 1) * (y1 - y0 + 1));
    }
  } else {
    const uint32_t half = split ? r.pages / 2 : 0;
    const uint32_t first = x.is(Processor::ncrisc) ? 0 : half;
    const uint32_t count = x.is(Processor::ncrisc) ? half : r.pages - half;
    const uint32_t a_base = get_write_ptr(x.cb_a) + r.a_page * kBf16TileBytes;
    noc_async_write_multicast(from + first * kBf16TileBytes, mcast_rect(a_base + first * kBf16TileBytes),
                              count * kBf16TileBytes, mcast_receivers());
  }
  if (r.dram_out && x.is(Processor::brisc)) {
    const InterleavedAddrGen out{r.dram_out, kBf16TileBytes};
    for (uint32_t p = 0; p < r.pages; ++p)
      noc_async_write(from + p * kBf16TileBytes, out.get_noc_addr(p), kBf16TileBytes);
  }
  noc_async_write_barrier();
  if (x.is(Processor::ncrisc)) {
    noc_semaphore_set(x.sem_hub_done, x.rounds[h]);
    return;
  }
  if (split) noc_semaphore_wait_min(x.sem_hub_done, x.rounds[h]);
  const uint32_t sem = x.sem_round[h];
  noc_semaphore_set(sem, x.rounds[h]);
  noc_semaphore_set_multicast(sem, mcast_rect(sem), mcast_receivers());
}

}  // namespace

void hub_round(Ctx& x, const HubRound& r) {
  const bool hub_side = x.hub && x.hub_index == r.hub;
  const bool takes_part =
      x.is(Processor::brisc) ? (hub_side || x.compute) : (hub_side && x.seed() && x.is(Processor::ncrisc));
  if (!takes_part) return;
  ++x.rounds[r.hub];
  if (hub_side) hub_send(x, r);
}

void credit_hub(Ctx& x, uint32_t hub) { noc_semaphore_inc(x.hub_noc(hub, x.sem_ready[hub]), 1); }

void await_round(Ctx& x, uint32_t hub) { noc_semaphore_wait_min(x.sem_round[hub], x.rounds[hub]); }

void mcast_round(Ctx& x, uint32_t contributors, uint32_t pages, uint32_t source, uint32_t dram_out) {
  hub_round(x, {0, contributors, pages, source, 0, dram_out});
  if (!x.compute || !x.is(Processor::brisc)) return;
  const DeviceZone zone("round");
  zone_data(kRoundTag, round_tag(0, x.rounds[0]));
  cb_reserve_back(x.cb_a, kCbAPages);
  credit_hub(x, 0);
  await_round(x, 0);
  cb_push_back(x.cb_a, kCbAPages);
}

void exchange_open(Ctx& x, const Members& members) {
  cb_reserve_back(x.cb_part, kPartPages);
  for (uint32_t m : members) noc_semaphore_inc(x.compute_noc(m, x.sem_credit), 1);
  x.credits += uint32_t(members.size());
  noc_semaphore_wait_min(x.sem_credit, x.credits);
}

void exchange_close(Ctx& x, const Members& members) {
  noc_async_write_barrier();
  for (uint32_t m : members) noc_semaphore_inc(x.compute_noc(m, x.sem_arrival), 1);
  x.arrivals += uint32_t(members.size());
  noc_semaphore_wait_min(x.sem_arrival, x.arrivals);
  cb_push_back(x.cb_part, kPartPages);
}

void exchange(Ctx& x, const Members& members, uint32_t src_l1, const PartSends& sends) {
  exchange_open(x, members);
  const uint32_t part_base = get_write_ptr(x.cb_part);  // the same on every compute core
  for (const PartSend& s : sends) {
    noc_async_write(src_l1 + s.src_tile * kFp32TileBytes,
                    x.compute_noc(s.dst_core, part_base + s.dst_page * kFp32TileBytes), kFp32TileBytes);
  }
  exchange_close(x, members);
}

void refill_residual_row(Ctx& x) {
  cb_reserve_back(x.cb_x, kRowTiles);
  local_copy(get_read_ptr(x.cb_a) + x.row * kRowTiles * kBf16TileBytes, get_write_ptr(x.cb_x), kRowTiles * kBf16TileBytes);
  cb_push_back(x.cb_x, kRowTiles);
  cb_pop_front(x.cb_a, kCbAPages);
}

void send_ln_stats(Ctx& x) {
  constexpr uint32_t kFaceRowBytes = 16 * 4;  // 16 fp32 values
  constexpr uint32_t kFaceBytes = 16 * kFaceRowBytes;
  const uint32_t row = x.col % 32, block = x.col / 32;
  // row `row` of a tile: faces 0 / 1 for rows 0-15, 2 / 3 below
  const uint32_t row_offset = (row / 16) * 2 * kFaceBytes + (row % 16) * kFaceRowBytes;
  const DeviceZone zone("gather");
  zone_data(kRoundTag, round_tag(1, x.rounds[1] + 1));
  cb_wait_front(x.cb_scores, 4);
  for (uint32_t sum = 0; sum < 2; ++sum) {
    const uint32_t src = get_read_ptr(x.cb_scores) + sum * kFp32TileBytes;
    const uint32_t tile = x.row * 4 + sum * 2 + block;
    const uint32_t dst = x.land[1] + kStatsLandPage * kBf16TileBytes + tile * kFp32TileBytes + row_offset;
    for (uint32_t half = 0; half < 2; ++half)
      noc_async_write(src + half * kFaceBytes, x.hub_noc(1, dst + half * kFaceBytes), kFaceRowBytes);
  }
  noc_async_write_barrier();
  noc_semaphore_inc(x.hub_noc(1, x.sem_gather), 1);
  cb_pop_front(x.cb_scores, 4);
}

void refill_own_tile(Ctx& x) {
  cb_reserve_back(x.cb_x, 1);
  local_copy(get_read_ptr(x.cb_a) + (x.row * kRowTiles + x.col) * kBf16TileBytes, get_write_ptr(x.cb_x), kBf16TileBytes);
  cb_push_back(x.cb_x, 1);
  cb_pop_front(x.cb_a, kCbAPages);
}

void send_head_kv(Ctx& x) {
  const uint32_t base = x.group == 1 ? x.cb_k_base : x.cb_v_base;
  const uint32_t window = base + (x.head_k_chunks % named("k4_sdpa_slots")) * 4 * kBf16TileBytes;
  cb_wait_front(x.cb_mm0, 4);
  noc_async_write(get_read_ptr(x.cb_mm0), x.compute_noc(x.head, window), 4 * kBf16TileBytes);
  noc_async_write_barrier();
  noc_semaphore_inc(x.compute_noc(x.head, x.sem_kv), 1);
  cb_pop_front(x.cb_mm0, 4);
}

void receive_head_kv(Ctx& x) {
  cb_reserve_back(x.cb_k, 4);
  cb_reserve_back(x.cb_v, 4);
  x.kv_arrivals += 2;
  noc_semaphore_wait_min(x.sem_kv, x.kv_arrivals);
  cb_push_back(x.cb_k, 4);
  cb_push_back(x.cb_v, 4);
}

}  // namespace ditmk::tt::kernel
