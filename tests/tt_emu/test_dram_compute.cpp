// DRAM placement (interleaved, sharded) and the compute calls against host arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "ditmk/core/dtype.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/emu/dram.hpp"
#include "ditmk/tt/formats.hpp"
#include "small_program.hpp"
#include "support/error_of.hpp"

namespace ditmk::tt::emu {
namespace {

TEST(Dram, InterleavedAndShardedPlacement) {
  Dram dram;
  const DramBuffer& pages = dram.allocate("pages", DramLayout::interleaved, TileFormat::bf16, 19 * 1000, 1000);
  for (uint32_t p = 0; p < 19; ++p) {
    const auto [bank, address] = pages.locate(uint64_t(p) * 1000 + 7);
    EXPECT_EQ(bank, p % 8);
    EXPECT_EQ(address, pages.address + (p / 8) * 1024 + 7);  // pages padded to 64 B in a bank
  }
  EXPECT_EQ(pages.units_in_bank(2), 3u);
  EXPECT_EQ(pages.units_in_bank(3), 2u);
  const DramBuffer& shards = dram.allocate("shards", DramLayout::sharded, TileFormat::bfp8_b, 20 * 4352, 4352);
  EXPECT_GE(shards.address, pages.address + pages.bytes_in_bank(0));
  const auto [bank, address] = shards.locate(uint64_t(13) * 4352);
  EXPECT_EQ(bank, 5u);
  EXPECT_EQ(address, shards.address + 4352);
  const std::vector<std::byte> data = testing::random_bytes(21, 20 * 4352);
  dram.write(shards, data);
  EXPECT_EQ(dram.read(shards), data);
  EXPECT_EQ(dram.buffer_at(4, shards.address, 3 * 4352), nullptr);  // bank 4 holds 2 shards
  EXPECT_EQ(dram.buffer_at(4, shards.address, 2 * 4352), &shards);
}

// A host that chose its own addresses (ttnn's allocator) gets them; buffers allocated afterwards
// without one go above all of them, and a fixed address overlapping a buffer or misaligned is refused.
TEST(Dram, FixedAddresses) {
  Dram dram;
  const DramBuffer& high = dram.allocate("high", DramLayout::interleaved, TileFormat::bf16, 16 * 2048, 2048, 0x10000);
  const DramBuffer& low = dram.allocate("low", DramLayout::interleaved, TileFormat::bf16, 8 * 2048, 2048, 0x40);
  EXPECT_EQ(high.address, 0x10000u);
  EXPECT_EQ(low.address, 0x40u);
  const DramBuffer& next = dram.allocate("next", DramLayout::interleaved, TileFormat::bf16, 2048, 2048);
  EXPECT_EQ(next.address, 0x10000u + 2 * 2048);
  const std::vector<std::byte> data = testing::random_bytes(3, 8 * 2048);
  dram.write(low, data);
  EXPECT_EQ(dram.read(low), data);
  EXPECT_EQ(dram.buffer_at(0, 0x40, 2048), &low);
  EXPECT_THROW(dram.allocate("over", DramLayout::interleaved, TileFormat::bf16, 2048, 2048, 0x10000 + 2048), Error);
  EXPECT_THROW(dram.allocate("odd", DramLayout::interleaved, TileFormat::bf16, 2048, 2048, 0x20020), Error);
}

// A CB the kernel fills only in part reads back as far as it was written (a tensor's last shard
// that the tensor does not fill); past that, the read is refused.
TEST(Dram, CbReadsBackItsWrittenPrefix) {
  Device device;
  const DramBuffer& buffer = device.allocate_interleaved("x", TileFormat::bf16, 2048, 2048);
  const std::vector<std::byte> data = testing::random_bytes(23, 2048);
  device.write_buffer(buffer, data);
  const uint32_t base = buffer.address;
  testing::SmallProgram p(1, [base] {
    if (current_processor() != Processor::ncrisc) return;
    cb_reserve_back(0, 1);
    noc_async_read(InterleavedAddrGen{base, 2048}.get_noc_addr(0), get_write_ptr(0), 2048);
    noc_async_read_barrier();
    cb_push_back(0, 1);
  });
  p.cb("cb_in", 0, 2);
  device.load(p.program);
  const LaunchReport report = device.launch();
  ASSERT_TRUE(report.clean()) << to_string(report.faults.at(0));
  EXPECT_EQ(device.read_cb({0, 0}, "cb_in", 2048), data);
  EXPECT_EQ(device.read_cb({0, 0}, "cb_in", 100), std::vector<std::byte>(data.begin(), data.begin() + 100));
  EXPECT_THROW(device.read_cb({0, 0}, "cb_in"), Error);
}

// A kernel reads an interleaved buffer page by page; the bytes land intact and each bank is
// charged for its pages.
TEST(Dram, KernelReadsInterleavedPagesAndCountsPerBank) {
  Device device;
  constexpr uint32_t kPages = 11;
  const DramBuffer& buffer = device.allocate_interleaved("x", TileFormat::bf16, kPages * 2048, 2048);
  const std::vector<std::byte> data = testing::random_bytes(22, kPages * 2048);
  device.write_buffer(buffer, data);
  const uint32_t base = buffer.address;
  testing::SmallProgram p(1, [base] {
    if (current_processor() != Processor::ncrisc) return;
    const InterleavedAddrGen pages{base, 2048};
    cb_reserve_back(0, kPages);
    for (uint32_t page = 0; page < kPages; ++page) {
      noc_async_read(pages.get_noc_addr(page), get_write_ptr(0) + page * 2048, 2048);
    }
    noc_async_read_barrier();
    cb_push_back(0, kPages);
  });
  p.cb("cb_in", 0, kPages);
  device.load(p.program);
  const LaunchReport report = device.launch();
  ASSERT_TRUE(report.clean()) << to_string(report.faults.at(0));
  EXPECT_EQ(device.read_cb({0, 0}, "cb_in"), data);
  for (uint32_t bank = 0; bank < kNumDramBanks; ++bank) {
    EXPECT_EQ(report.counters.dram[bank].read_bytes, (bank < 3 ? 2u : 1u) * 2048) << bank;
  }
  EXPECT_EQ(report.counters.noc[0].transfers, kPages);
  EXPECT_NEAR(report.bound.dram_seconds, 2 * 2048 / (kDramBf16BytesPerSecond / 8), 1e-12);
}

// A CB filled only in part (a short last shard) reads back up to the bytes its kernel wrote; asking
// for more, or the whole CB, names the first byte never written.
TEST(Dram, ReadCbReadsTheWrittenFrontOfACb) {
  Device device;
  const DramBuffer& buffer = device.allocate_interleaved("x", TileFormat::bf16, 2 * 2048, 2048);
  const std::vector<std::byte> data = testing::random_bytes(24, 2 * 2048);
  device.write_buffer(buffer, data);
  const uint32_t base = buffer.address;
  testing::SmallProgram p(1, [base] {
    if (current_processor() != Processor::ncrisc) return;
    const InterleavedAddrGen pages{base, 2048};
    cb_reserve_back(0, 2);
    for (uint32_t page = 0; page < 2; ++page) {
      noc_async_read(pages.get_noc_addr(page), get_write_ptr(0) + page * 2048, 2048);
    }
    noc_async_read_barrier();
    cb_push_back(0, 2);
  });
  p.cb("cb_in", 0, 4);
  device.load(p.program);
  ASSERT_TRUE(device.launch().clean());
  EXPECT_EQ(device.read_cb({0, 0}, "cb_in", 2 * 2048), data);
  const std::string more = ditmk::testing::error_of([&] { device.read_cb({0, 0}, "cb_in", 3 * 2048); });
  EXPECT_NE(more.find("read_cb: byte 4096 of CB 'cb_in' on core"), std::string::npos) << more;
  EXPECT_THROW(device.read_cb({0, 0}, "cb_in"), Error);
}

// TRISC computes a few ops on two random tiles and packs them as fp32 (exact) and bfp8_b.
TEST(Compute, OpsMatchHostArithmetic) {
  const std::vector<float> a = testing::random_values(23, 0, kTileElems);
  const std::vector<float> b = testing::random_values(23, 1, kTileElems);
  auto bf16_tile = [](const std::vector<float>& values) {
    std::vector<float> ordered(kTileElems);
    tilize_tile(values.data(), kTile, ordered.data());
    std::vector<std::byte> bytes(tile_bytes(TileFormat::bf16));
    pack_tile(TileFormat::bf16, ordered.data(), bytes.data());
    return bytes;
  };
  const std::vector<std::byte> a_bytes = bf16_tile(a), b_bytes = bf16_tile(b);
  testing::SmallProgram p(1, [&] {
    if (current_processor() == Processor::ncrisc) {
      cb_reserve_back(0, 2);
      l1_write(get_write_ptr(0), a_bytes.data(), 2048);
      l1_write(get_write_ptr(0) + 2048, b_bytes.data(), 2048);
      cb_push_back(0, 2);
    } else if (current_processor() == Processor::trisc) {
      cb_wait_front(0, 2);
      tile_regs_acquire();
      add_tiles(0, 0, 0, 1, 0, Broadcast::row);
      mul_tiles(0, 0, 0, 1, 1, Broadcast::col);
      reduce_tile(ReduceFunc::max, ReduceDim::row, 0, 0, 2);
      matmul_tiles(0, 0, 0, 1, 3);
      copy_tile(0, 0, 4);
      gelu_tile(4);
      copy_tile(0, 1, 5);
      exp_tile(5);
      transpose_wh_tile(0, 0, 6);
      tile_regs_commit();
      tile_regs_wait();
      cb_reserve_back(1, 7);
      for (uint32_t t = 0; t < 7; ++t) pack_tile(t, 1);
      cb_push_back(1, 7);
      cb_reserve_back(2, 1);
      pack_tile(3, 2);
      cb_push_back(2, 1);
      tile_regs_release();
    }
  });
  p.cb("cb_in", 0, 2);
  p.cb("cb_f32", 1, 7, TileFormat::fp32);
  p.cb("cb_b8", 2, 1, TileFormat::bfp8_b);
  Device device;
  device.load(p.program);
  const LaunchReport report = device.launch();
  ASSERT_TRUE(report.clean()) << to_string(report.faults.at(0));

  std::vector<float> ra(kTileElems), rb(kTileElems);
  for (int i = 0; i < kTileElems; ++i) {
    ra[i] = round_to_bf16(a[i]);
    rb[i] = round_to_bf16(b[i]);
  }
  std::vector<float> expected(7 * kTileElems, 0.0f);
  for (int r = 0; r < kTile; ++r) {
    float row_max = -INFINITY;
    for (int c = 0; c < kTile; ++c) {
      const int i = r * kTile + c;
      expected[i] = ra[i] + rb[c];
      expected[kTileElems + i] = ra[i] * rb[r * kTile];
      row_max = std::max(row_max, ra[i]);
      float acc = 0;
      for (int k = 0; k < kTile; ++k) acc += ra[r * kTile + k] * rb[k * kTile + c];
      expected[3 * kTileElems + i] = acc;
      const float x = ra[i];
      expected[4 * kTileElems + i] = 0.5f * x * (1.0f + std::tanh(0.7978845608028654f * (x + 0.044715f * x * x * x)));
      expected[5 * kTileElems + i] = std::exp(rb[i]);
      expected[6 * kTileElems + i] = ra[c * kTile + r];
    }
    expected[2 * kTileElems + r * kTile] = row_max;
  }
  const std::vector<std::byte> f32 = device.read_cb({0, 0}, "cb_f32");
  std::vector<float> got(7 * kTileElems);
  unpack_tiles(TileFormat::fp32, f32.data(), 7, got.data());
  for (int t = 0; t < 7; ++t) {
    std::vector<float> rows(kTileElems);
    untilize_tile(got.data() + t * kTileElems, rows.data(), kTile);
    for (int i = 0; i < kTileElems; ++i) {
      ASSERT_EQ(rows[i], expected[t * kTileElems + i]) << "tile " << t << " element " << i;
    }
  }
  // bfp8_b pack: the codec's rounding of the matmul result
  std::vector<float> ordered(kTileElems), rounded_tile(kTileElems), packed(kTileElems);
  tilize_tile(expected.data() + 3 * kTileElems, kTile, ordered.data());
  round_tile(TileFormat::bfp8_b, ordered.data(), rounded_tile.data());
  const std::vector<std::byte> b8 = device.read_cb({0, 0}, "cb_b8");
  unpack_tile(TileFormat::bfp8_b, b8.data(), packed.data());
  EXPECT_EQ(packed, rounded_tile);
}

}  // namespace
}  // namespace ditmk::tt::emu
