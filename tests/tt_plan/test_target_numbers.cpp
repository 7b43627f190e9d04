// Every derived number of TARGET.md section 4, for K1 and K4 and both stream dtypes.
#include <gtest/gtest.h>

#include "plan_fixture.hpp"

namespace ditmk::tt {
namespace {

using model::Version;
using testing::layout_of;
using testing::spec_of;

struct Expected {
  TileFormat dtype;
  uint64_t qkv_share, k_block;
  uint32_t k1_cb_w, k1_compute, k1_reader, k4_cb_w, k4_compute;
};

const Expected kTable[] = {
    {TileFormat::bfp8_b, 104'448, 17'408, 261'120, 875'520, 366'592, 261'120, 1'049'600},
    {TileFormat::bf16, 196'608, 32'768, 294'912, 909'312, 458'752, 425'984, 1'214'464},
};

TEST(TargetNumbers, QkvShareAndKBlock) {
  for (const Expected& e : kTable) {
    ArenaLayout layout = layout_of(Version::n15, Variant::steps4, e.dtype);
    const ArenaOp& qkv = layout.op("blk1.qkv");
    ASSERT_EQ(qkv.slices.size(), 96u);
    for (const CoreSlice& s : qkv.slices) {
      EXPECT_EQ(s.bytes, e.qkv_share) << tile_format_name(e.dtype);
      EXPECT_EQ(s.k_tiles, 48);
      EXPECT_EQ(s.n_tiles, 2);
    }
    EXPECT_EQ(layout.stream_k_block_bytes(), e.k_block);
    EXPECT_EQ(qkv.k_block_bytes, e.k_block);
  }
}

TEST(TargetNumbers, K1CbsAndL1) {
  for (const Expected& e : kTable) {
    for (Version v : {Version::n15, Version::n16, Version::n17}) {
      ProgramSpec spec = spec_of(v, Variant::steps4, e.dtype, Kernel::k1);
      EXPECT_EQ(spec.cb("cb_w").total_bytes, e.k1_cb_w);
      EXPECT_EQ(spec.l1_bytes.at("compute"), e.k1_compute);
      EXPECT_EQ(spec.l1_bytes.at("reader"), e.k1_reader);
      EXPECT_EQ(spec.stats().l1_bytes_compute, e.k1_compute);
      EXPECT_EQ(spec.stats().l1_bytes_reader, e.k1_reader);
    }
  }
}

TEST(TargetNumbers, K4CbsAndL1) {
  for (const Expected& e : kTable) {
    for (Version v : {Version::n15, Version::n16, Version::n17}) {
      ProgramSpec spec = spec_of(v, Variant::steps4, e.dtype, Kernel::k4);
      EXPECT_EQ(spec.cb("cb_w").total_bytes, e.k4_cb_w);
      EXPECT_EQ(spec.l1_bytes.at("compute"), e.k4_compute);
      EXPECT_EQ(spec.l1_bytes.at("reader"), 262'144u);  // readers idle in direct mode: cb_a only
    }
  }
}

TEST(TargetNumbers, K4HubTotalsPerVersion) {
  const std::pair<Version, uint32_t> hubs[] = {{Version::n15, 839'680}, {Version::n16, 956'416}, {Version::n17, 995'328}};
  for (auto [version, bytes] : hubs) {
    for (TileFormat dtype : {TileFormat::bfp8_b, TileFormat::bf16}) {
      ProgramSpec spec = spec_of(version, Variant::steps4, dtype, Kernel::k4);
      EXPECT_EQ(spec.l1_bytes.at("hub"), bytes) << model::version_name(version);
      EXPECT_EQ(spec.stats().l1_bytes_hub, bytes);
      EXPECT_EQ(spec.cta("k4_nt_a"), uint32_t(spec.layout.a_pad / 32));
    }
  }
}

TEST(TargetNumbers, ActionTilesPerVersion) {
  EXPECT_EQ(layout_of(Version::n15, Variant::steps4, TileFormat::bf16).a_pad, 32);
  EXPECT_EQ(layout_of(Version::n16, Variant::steps4, TileFormat::bf16).a_pad, 128);
  EXPECT_EQ(layout_of(Version::n17, Variant::steps4, TileFormat::bf16).a_pad, 160);
}

}  // namespace
}  // namespace ditmk::tt
