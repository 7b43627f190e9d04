#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/formats.hpp"
#include "ditmk/tt/pack/arena_reader.hpp"
#include "ditmk/tt/pack/pack_files.hpp"
#include "expected_ops.hpp"
#include "pack_fixture.hpp"

namespace ditmk::tt::testing {
namespace {

namespace fs = std::filesystem;

struct Mismatch {
  std::size_t count = 0, first = 0;
};

Mismatch compare(const std::vector<float>& got, const std::vector<float>& want) {
  Mismatch m;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] == want[i]) continue;  // NaN (a hole in the slices) never compares equal
    if (m.count++ == 0) m.first = i;
  }
  return m;
}

class PackedArena : public ::testing::TestWithParam<TileFormat> {};

TEST_P(PackedArena, FilesHaveTheSizeOfTheLayoutsOps) {
  const PackFixture& f = packed(GetParam());
  const ArenaLayout& layout = f.summary.layout;
  for (Arena arena : {Arena::stream, Arena::small}) {
    // Each op takes, in every bank, its cores' slices one after another (12 per bank for the block
    // ops), 64-byte aligned after the previous op.
    uint64_t top = 0, weight_bytes = 0;
    for (const ArenaOp& op : layout.ops) {
      if (op.arena != arena) continue;
      const uint64_t tiles = uint64_t(op.k_pad / 32) * (op.n_pad / 32);
      weight_bytes += tiles * tile_bytes(op.format);
      const uint64_t slice = tiles / op.slices.size() * tile_bytes(op.format);
      top = (top + 63) / 64 * 64 + (op.slices.size() + kDramBanks - 1) / kDramBanks * slice;
    }
    EXPECT_EQ(layout.arena_bank_bytes[int(arena)], top) << arena_name(arena);
    EXPECT_EQ(layout.weight_bytes(arena), weight_bytes) << arena_name(arena);
    EXPECT_EQ(fs::file_size(fs::path(f.pack_dir) / pack_files::arena_file(arena)), kDramBanks * top);
  }
  // 2 blocks: q, out, ff1, ff2 then qkv, out, ff1, ff2; then the 6 tail ops
  EXPECT_EQ(layout.ops.size(), 14u);
}

// One test per (format, block 0 | block 1 | tail ops), so each stays short.
class PackedOps : public ::testing::TestWithParam<std::tuple<TileFormat, int>> {};

TEST_P(PackedOps, ReadBackAsTheCheckpointAfterTheFormatsRounding) {
  const auto [format, group] = GetParam();
  const PackFixture& f = packed(format);
  const ArenaLayout& layout = f.summary.layout;
  ArenaReader reader(f.pack_dir, layout);
  int checked = 0;
  for (const ArenaOp& op : layout.ops) {
    if (op.block != (group < 2 ? group : -1)) continue;
    ++checked;
    const std::vector<float> exact = expected_op(op, f.weights, kPackedEmbodiment);
    const std::vector<float> want = rounded(op.format, exact, op.k_pad, op.n_pad);
    std::size_t nonzero = 0;
    for (float v : want) nonzero += v != 0.0f;
    // The comparison must not rest on zeros: most logical weights survive the rounding.
    ASSERT_GT(nonzero, std::size_t(op.k_logical) * op.n_logical * 9 / 10) << op.name;
    ASSERT_LE(nonzero, std::size_t(op.k_logical) * op.n_logical) << op.name << ": padding holds values";
    const Mismatch m = compare(reader.read_op(op.name), want);
    EXPECT_EQ(m.count, 0u) << op.name << ": first at row " << m.first / op.n_pad << " col " << m.first % op.n_pad;
  }
  EXPECT_EQ(checked, group < 2 ? 4 : 6);
}

INSTANTIATE_TEST_SUITE_P(FormatsAndOps, PackedOps,
                         ::testing::Combine(::testing::Values(TileFormat::bf16, TileFormat::bfp8_b),
                                            ::testing::Values(0, 1, 2)),
                         [](const auto& info) {
                           const int group = std::get<1>(info.param);
                           return std::string(tile_format_name(std::get<0>(info.param))) +
                                  (group < 2 ? "_block" + std::to_string(group) : std::string("_tail"));
                         });

// The tile order inside a slice, checked on the raw bytes: (k0,n0) (k0,n1) (k1,n0) ... in K-blocks of 8.
TEST_P(PackedArena, SliceBytesFollowKBlocksInRowMajorTileOrder) {
  const PackFixture& f = packed(GetParam());
  const ArenaLayout& layout = f.summary.layout;
  ASSERT_EQ(layout.tile_order, TileOrder::row_major);
  ArenaReader reader(f.pack_dir, layout);
  const std::size_t index = 4;  // blk1.qkv
  const ArenaOp& op = layout.ops[index];
  ASSERT_EQ(op.name, "blk1.qkv");
  const CoreSlice& slice = op.slices[37];  // K part of head 5
  const std::vector<std::byte> bytes = reader.slice_bytes(index, slice);
  const std::vector<float> want = rounded(op.format, expected_op(op, f.weights, kPackedEmbodiment), op.k_pad, op.n_pad);
  const std::size_t tb = tile_bytes(op.format);
  const std::pair<int, int> position_to_tile[] = {{0, 0}, {0, 1}, {1, 0}, {7, 1}, {8, 0}, {8, 1}, {47, 1}};
  const int positions[] = {0, 1, 2, 15, 16, 17, 95};
  for (int i = 0; i < 7; ++i) {
    const auto [k, n] = position_to_tile[i];
    float got[kTileElems], tile[kTileElems];
    unpack_tile(op.format, bytes.data() + std::size_t(positions[i]) * tb, got);
    tilize_tile(want.data() + std::size_t(slice.k_tile0 + k) * 32 * op.n_pad + std::size_t(slice.n_tile0 + n) * 32,
                std::size_t(op.n_pad), tile);
    EXPECT_EQ(std::memcmp(got, tile, sizeof(got)), 0) << "tile position " << positions[i];
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, PackedArena, ::testing::Values(TileFormat::bf16, TileFormat::bfp8_b),
                         [](const auto& info) { return std::string(tile_format_name(info.param)); });

// The reader finds an op through its offsets-table entry: point blk0.ff1's entry at blk1.ff1's
// region and blk0.ff1 reads back blk1's weights.
TEST(ArenaReader, FindsOpsThroughTheOffsetsTable) {
  const PackFixture& f = packed(TileFormat::bf16);
  const ArenaLayout& layout = f.summary.layout;
  const ditmk::testing::TempDir dir;
  for (Arena arena : {Arena::stream, Arena::small})
    fs::create_symlink(fs::path(f.pack_dir) / pack_files::arena_file(arena), dir.path() / pack_files::arena_file(arena));
  std::vector<uint32_t> table = layout.offsets_table();
  ASSERT_EQ(layout.ops[2].name, "blk0.ff1");
  ASSERT_EQ(layout.ops[6].name, "blk1.ff1");
  ASSERT_NE(table[2], table[6]);
  table[2] = table[6];
  std::ofstream(dir / pack_files::kOffsetsTable, std::ios::binary)
      .write(reinterpret_cast<const char*>(table.data()), std::streamsize(table.size() * 4));
  ArenaReader reader(dir.path().string(), layout);
  const std::vector<float> blk1 = rounded(TileFormat::bf16, expected_op(layout.ops[6], f.weights, 1), 1536, 6144);
  EXPECT_EQ(compare(reader.read_op("blk0.ff1"), blk1).count, 0u);
  const std::vector<float> blk0 = rounded(TileFormat::bf16, expected_op(layout.ops[2], f.weights, 1), 1536, 6144);
  EXPECT_GT(compare(reader.read_op("blk0.ff1"), blk0).count, blk0.size() / 2);
}

TEST(ArenaReader, RejectsAPackOfAnotherPlan) {
  const PackFixture& f = packed(TileFormat::bf16);
  const ArenaLayout other = pack_layout(f.weights.config, TileFormat::bfp8_b);
  try {
    ArenaReader reader(f.pack_dir, other);
    FAIL() << "a bf16 pack opened for a bfp8_b plan";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("arena_stream.bin"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ditmk::tt::testing
