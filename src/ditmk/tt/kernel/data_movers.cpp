#include "ditmk/tt/kernel/data_movers.hpp"

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

void stream_slice(Ctx& x, const ArenaOp& op) {
  const CoreSlice& slice = op.slices.at(x.c);
  const bool tail = op.arena == Arena::small;
  const uint32_t arena = x.io(tail ? "arena_small" : "arena_stream");
  // the offsets table gives the op's region; the slot of this core inside it follows the plan's rule
  const uint32_t address = arena + x.op_offset(op.name) + uint32_t(slice.offset - op.bank_offset);
  const uint64_t bank = get_noc_addr_from_bank_id(uint32_t(slice.bank), 0);
  if (tail) {
    cb_reserve_back(x.cb_tw, kTailPages);
    noc_async_read(bank + address, get_write_ptr(x.cb_tw), uint32_t(slice.bytes));
    noc_async_read_barrier();
    cb_push_back(x.cb_tw, kTailPages);
    x.cfg.trace->tail_weight_bytes += slice.bytes;
    return;
  }
  const uint32_t block_bytes = uint32_t(op.k_block_bytes);
  for (int kb = 0; kb < slice.k_tiles / 8; ++kb) {
    cb_reserve_back(x.cb_w, kKBlockPages);
    noc_async_read(bank + address + kb * block_bytes, get_write_ptr(x.cb_w), block_bytes);
    noc_async_read_barrier();
    cb_push_back(x.cb_w, kKBlockPages);
  }
  x.cfg.trace->block_weight_bytes.at(op.block) += slice.bytes;
}

void setup_constants(Ctx& x) {
  push_tiles(x.cb_const, {identity_tile(), identity_tile(0.5f), column0_tile()}, 3);
  push_tiles(x.cb_ones, {ones_tile()}, 1);
  // attention's running maximum: moves of a row-max column and the fill that keeps other columns out
  push_tiles(x.cb_kt, {unit_tile(0, 1), unit_tile(0, 2), column_fill_tile(2, kMaskedScore),
                       column_fill_tile(3, kMaskedScore)}, 4);
  const Fp32Tile inv_width = filled_fp32_tile(1.0f / float(x.layout.width));
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
  x.land_base = get_write_ptr(x.cb_land);
  noc_semaphore_set(x.sem_land, x.land_base);
  noc_semaphore_set_multicast(x.sem_land, mcast_rect(x.sem_land), mcast_receivers());
}

void learn_landing_ring(Ctx& x) {
  noc_semaphore_wait_min(x.sem_land, 1);
  x.land_base = read_semaphore(x.sem_land);
}

Bf16Tile read_row_tile(Ctx& x, uint32_t table, uint32_t row_bytes, uint32_t row, uint32_t col_tile) {
  const uint32_t scratch = get_write_ptr(x.cb_bias1);
  const InterleavedAddrGen rows{table, row_bytes};
  noc_async_read(rows.get_noc_addr(row, col_tile * kRowChunkBytes), scratch, kRowChunkBytes);
  noc_async_read_barrier();
  x.cfg.trace->io_read_bytes += kRowChunkBytes;
  uint16_t values[32];
  l1_read(scratch, values, kRowChunkBytes);
  return row_tile(values);
}

Bf16Tile read_rows_tile(Ctx& x, uint32_t table, uint32_t row_bytes, const int* rows, uint32_t col_tile) {
  const uint32_t scratch = get_write_ptr(x.cb_bias1);
  const InterleavedAddrGen gen{table, row_bytes};
  Bf16Tile tile{};
  for (int r = 0; r < 32; ++r) {
    if (rows[r] < 0) continue;
    noc_async_read(gen.get_noc_addr(uint32_t(rows[r]), col_tile * kRowChunkBytes), scratch, kRowChunkBytes);
    noc_async_read_barrier();
    x.cfg.trace->io_read_bytes += kRowChunkBytes;
    uint16_t values[32];
    l1_read(scratch, values, kRowChunkBytes);
    for (int c = 0; c < 32; ++c) tile[tile_index(r, c)] = values[c];
  }
  return tile;
}

void push_tiles(uint32_t cb, const std::vector<Bf16Tile>& tiles, uint32_t window) {
  cb_reserve_back(cb, window);
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    l1_write(get_write_ptr(cb) + uint32_t(i) * kBf16TileBytes, tiles[i].data(), kBf16TileBytes);
  }
  cb_push_back(cb, window);
}

void contribute(Ctx& x, uint32_t src_l1, const std::vector<std::pair<uint32_t, uint32_t>>& tiles) {
  for (const auto& [offset, page] : tiles) {
    noc_async_write(src_l1 + offset * kBf16TileBytes, x.hub_noc(x.land_base + page * kBf16TileBytes),
                    kBf16TileBytes);
  }
  noc_async_write_barrier();
  noc_semaphore_inc(x.hub_noc(x.sem_gather), 1);
}

void hub_gather(Ctx& x, uint32_t contributors) {
  if (!x.hub || !x.is(Processor::brisc)) return;
  x.gathered += contributors;
  noc_semaphore_wait_min(x.sem_gather, x.gathered);
}

void mcast_round(Ctx& x, uint32_t contributors, uint32_t pages, uint32_t source, uint32_t dram_out) {
  if (!x.is(Processor::brisc)) return;
  ++x.rounds;
  if (x.hub) {
    hub_gather(x, contributors);
    const uint32_t from = source ? source : x.land_base;
    // every compute core has reserved its cb_a: the previous round's data is consumed everywhere
    noc_semaphore_wait_min(x.sem_mcast_sender, x.rounds * named("n_compute"));
    const uint32_t cb_a = get_write_ptr(x.cb_a);
    noc_async_write_multicast(from, mcast_rect(cb_a), pages * kBf16TileBytes, mcast_receivers());
    if (dram_out) {
      const InterleavedAddrGen out{dram_out, kBf16TileBytes};
      for (uint32_t p = 0; p < pages; ++p) noc_async_write(from + p * kBf16TileBytes, out.get_noc_addr(p), kBf16TileBytes);
    }
    noc_async_write_barrier();
    noc_semaphore_set(x.sem_mcast_receiver, x.rounds);
    noc_semaphore_set_multicast(x.sem_mcast_receiver, mcast_rect(x.sem_mcast_receiver), mcast_receivers());
    return;
  }
  if (!x.compute) return;
  cb_reserve_back(x.cb_a, kCbAPages);
  noc_semaphore_inc(x.hub_noc(x.sem_mcast_sender), 1);
  noc_semaphore_wait_min(x.sem_mcast_receiver, x.rounds);
  cb_push_back(x.cb_a, kCbAPages);
}

void exchange_open(Ctx& x, const std::vector<uint32_t>& members) {
  cb_reserve_back(x.cb_part, kPartPages);
  for (uint32_t m : members) noc_semaphore_inc(x.compute_noc(m, x.sem_credit), 1);
  x.credits += uint32_t(members.size());
  noc_semaphore_wait_min(x.sem_credit, x.credits);
}

void exchange_close(Ctx& x, const std::vector<uint32_t>& members) {
  noc_async_write_barrier();
  for (uint32_t m : members) noc_semaphore_inc(x.compute_noc(m, x.sem_arrival), 1);
  x.arrivals += uint32_t(members.size());
  noc_semaphore_wait_min(x.sem_arrival, x.arrivals);
  cb_push_back(x.cb_part, kPartPages);
}

void exchange(Ctx& x, const std::vector<uint32_t>& members, uint32_t src_l1, const std::vector<PartSend>& sends) {
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
  std::vector<std::byte> row(kRowTiles * kBf16TileBytes);
  l1_read(get_read_ptr(x.cb_a) + x.row * kRowTiles * kBf16TileBytes, row.data(), uint32_t(row.size()));
  l1_write(get_write_ptr(x.cb_x), row.data(), uint32_t(row.size()));
  cb_push_back(x.cb_x, kRowTiles);
  cb_pop_front(x.cb_a, kCbAPages);
}

}  // namespace ditmk::tt::kernel
