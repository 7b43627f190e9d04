// The kernel's own op geometry (op_geometry.hpp, from the structure named args) is the plan's: for
// every op of every arena, every core's slice has the plan's offsets-table entry, bank, offset inside
// the op's region, bytes, K tiles and K-block bytes, and the tail ops run on the plan's cores.
#include <gtest/gtest.h>

#include "ditmk/tt/kernel/op_geometry.hpp"
#include "tt_plan/plan_fixture.hpp"

namespace ditmk::tt::kernel {
namespace {

TEST(OpGeometry, IsThePlansSliceOfEveryOpOnEveryCore) {
  int slices = 0;
  for (model::Version version : {model::Version::n15, model::Version::n16, model::Version::n17}) {
    for (Variant variant : {Variant::block, Variant::step, Variant::steps4}) {
      for (TileFormat dtype : {TileFormat::bf16, TileFormat::bfp8_b}) {
        const ProgramSpec spec = tt::testing::spec_of(version, variant, dtype, Kernel::k4);
        const ArenaLayout& layout = spec.layout;
        const ArenaDims dims = arena_dims([&](const char* name) { return spec.cta(name); });
        for (std::size_t i = 0; i < layout.ops.size(); ++i) {
          const ArenaOp& op = layout.ops[i];
          if (op.arena == Arena::small) {
            EXPECT_EQ(tail_n_tiles(dims, TailOp(i - 4 * layout.n_blocks)), op.slices.size());
          }
          for (const CoreSlice& plan : op.slices) {
            const uint32_t c = uint32_t(plan.compute_idx);
            const OpSlice got = op.block >= 0
                                    ? block_op_slice(dims, uint32_t(op.block), BlockOp(i % 4), layout.is_cross(op.block), c)
                                    : tail_op_slice(dims, TailOp(i - 4 * layout.n_blocks), c);
            SCOPED_TRACE(op.name + " core " + std::to_string(c));
            EXPECT_EQ(got.op_index, i);
            EXPECT_EQ(got.bank, uint32_t(plan.bank));
            EXPECT_EQ(got.offset, plan.offset - op.bank_offset);
            EXPECT_EQ(got.bytes, plan.bytes);
            EXPECT_EQ(got.k_tiles, uint32_t(plan.k_tiles));
            EXPECT_EQ(got.k_block_bytes, op.k_block_bytes);
            ++slices;
          }
        }
      }
    }
  }
  EXPECT_GT(slices, 18 * 16 * 4 * 96);
}

}  // namespace
}  // namespace ditmk::tt::kernel
