// The kernel's block schedule (block_schedule.hpp, from the structure named args) is the plan's:
// every block's attention kind, key-set padding, chunk count and split, for every version and for
// shortened models.
#include <gtest/gtest.h>

#include "ditmk/tt/kernel/block_schedule.hpp"
#include "tt_plan/plan_fixture.hpp"

namespace ditmk::tt::kernel {
namespace {

BlockKeys kernel_keys(model::KeySet keys) {
  switch (keys) {
    case model::KeySet::self_attn: return BlockKeys::self;
    case model::KeySet::text: return BlockKeys::text;
    case model::KeySet::image: return BlockKeys::image;
    case model::KeySet::all: return BlockKeys::all;
  }
  return BlockKeys::self;
}

TEST(BlockSchedule, IsThePlansScheduleOfEveryBlock) {
  int blocks = 0;
  for (model::Version version : {model::Version::n15, model::Version::n16, model::Version::n17}) {
    for (int n_blocks : {0, 1, 3, 6}) {
      const ArenaLayout layout = tt::testing::layout_of(version, Variant::block, TileFormat::bf16, n_blocks);
      ProgramOptions options;
      const ProgramSpec spec = build_program_spec(blackhole_core_map(), layout, options);
      const BlockSchedule schedule = block_schedule([&](const char* name) { return spec.cta(name); });
      for (int b = 0; b < layout.n_blocks; ++b) {
        SCOPED_TRACE(std::string(model::version_name(version)) + " block " + std::to_string(b));
        const BlockKeys keys = block_keys(schedule, uint32_t(b));
        EXPECT_EQ(keys, kernel_keys(layout.block_keys[b]));
        if (keys != BlockKeys::self) {
          const KeySetShape& shape = layout.keys_of(b);
          EXPECT_EQ(padded_keys(schedule, keys), uint32_t(shape.l_pad));
          EXPECT_EQ(key_chunks(schedule, keys), uint32_t(shape.chunks()));
          EXPECT_EQ(keys_split(schedule, keys), shape.split());
        }
        ++blocks;
      }
    }
  }
  EXPECT_EQ(blocks, 16 + 32 + 32 + 3 * (1 + 3 + 6));
}

}  // namespace
}  // namespace ditmk::tt::kernel
