// Arena ownership: every padded weight tile is streamed by exactly one core, slices do not
// overlap in their bank, and the layouts of the three versions plan the right key sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/plan/io_slots.hpp"
#include "plan_fixture.hpp"

namespace ditmk::tt {
namespace {

using model::KeySet;
using model::Version;
using testing::config_of;
using testing::layout_of;

TEST(ArenaLayout, EveryWeightTileStreamedExactlyOnce) {
  for (TileFormat dtype : {TileFormat::bfp8_b, TileFormat::bf16}) {
    ArenaLayout layout = layout_of(Version::n16, Variant::steps4, dtype, 4);
    for (const ArenaOp& op : layout.ops) {
      std::map<std::pair<int, int>, int> owners;
      for (const CoreSlice& s : op.slices) {
        for (int k = s.k_tile0; k < s.k_tile0 + s.k_tiles; ++k) {
          for (int n = s.n_tile0; n < s.n_tile0 + s.n_tiles; ++n) ++owners[{k, n}];
        }
      }
      EXPECT_EQ(owners.size(), size_t(op.k_pad / 32) * (op.n_pad / 32)) << op.name;
      for (const auto& [tile, count] : owners) ASSERT_EQ(count, 1) << op.name << " tile " << tile.first << "," << tile.second;
    }
  }
}

TEST(ArenaLayout, SlicesDoNotOverlapInTheirBank) {
  ArenaLayout layout = layout_of(Version::n15, Variant::steps4, TileFormat::bfp8_b, 4);
  for (Arena arena : {Arena::stream, Arena::small}) {
    std::map<int, std::vector<std::pair<uint64_t, uint64_t>>> by_bank;
    for (const ArenaOp* op : layout.stream_ops(arena)) {
      for (const CoreSlice& s : op->slices) {
        EXPECT_EQ(s.bank, s.compute_idx % 8);
        by_bank[s.bank].push_back({s.offset, s.offset + s.bytes});
      }
    }
    for (auto& [bank, spans] : by_bank) {
      std::sort(spans.begin(), spans.end());
      for (size_t i = 1; i < spans.size(); ++i) ASSERT_LE(spans[i - 1].second, spans[i].first) << "bank " << bank;
      EXPECT_LE(spans.back().second, layout.arena_bank_bytes[int(arena)]);
    }
  }
}

TEST(ArenaLayout, OwnershipOfSplitOps) {
  ArenaLayout layout = layout_of(Version::n15, Variant::block, TileFormat::bf16, 2);
  // Cross Q: core c holds head c % 32 and the K third c / 32.
  const ArenaOp& q = layout.op("blk0.q");
  EXPECT_EQ(q.k_split, 3);
  EXPECT_EQ(q.slices[70].n_tile0, 2 * (70 % 32));
  EXPECT_EQ(q.slices[70].k_tile0, 16 * 2);
  // Out-projection: K 2048 padded (64 tiles) in quarters; core (row 1, col 13) -> pair 6, quarter 3.
  const ArenaOp& out = layout.op("blk1.out");
  EXPECT_EQ(out.k_pad, 2048);
  EXPECT_EQ(out.slices[48 + 13].n_tile0, 12);
  EXPECT_EQ(out.slices[48 + 13].k_tile0, 48);
  EXPECT_EQ(out.slices[48 + 13].k_tiles, 16);
  const ArenaOp& ff2 = layout.op("blk1.ff2");
  EXPECT_EQ(ff2.slices[48 + 13].k_tile0, 144);
  EXPECT_EQ(ff2.slices[48 + 13].k_tiles, 48);
  // Self QKV: core c = kind * 32 + head holds columns of head c % 32 of Q, K or V.
  const ArenaOp& qkv = layout.op("blk1.qkv");
  EXPECT_EQ(qkv.n_pad, 6144);
  EXPECT_EQ(qkv.slices[33].n_tile0, 66);
  ASSERT_EQ(qkv.sources.size(), 3u);
  EXPECT_EQ(qkv.sources[1].tensor, "action_head.model.transformer_blocks.1.attn1.to_k.weight");
  EXPECT_EQ(qkv.sources[1].dst_n0, 2048);
  EXPECT_TRUE(qkv.sources[1].pad_heads_n);
  EXPECT_NEAR(qkv.sources[0].scale, 1.0 / std::sqrt(48.0), 1e-15);
  EXPECT_EQ(qkv.sources[2].scale, 1.0);
}

TEST(ArenaLayout, TailOpsAreBf16AndPerVariant) {
  ArenaLayout block = layout_of(Version::n17, Variant::block, TileFormat::bfp8_b, 2);
  EXPECT_TRUE(block.stream_ops(Arena::small).empty());
  ArenaLayout step = layout_of(Version::n17, Variant::step, TileFormat::bfp8_b, 2);
  ASSERT_EQ(step.stream_ops(Arena::small).size(), 1u);
  ArenaLayout all = layout_of(Version::n17, Variant::steps4, TileFormat::bfp8_b, 2);
  std::vector<std::string> names;
  for (const ArenaOp* op : all.stream_ops(Arena::small)) {
    EXPECT_EQ(op->format, TileFormat::bf16) << op->name;
    names.push_back(op->name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"proj_out_2", "dec1", "dec2", "enc1", "enc2a", "enc3"}));
  const ArenaOp& dec2 = all.op("dec2");
  EXPECT_EQ(dec2.n_logical, 132);
  EXPECT_EQ(dec2.n_pad, 160);
  EXPECT_EQ(dec2.slices.size(), 5u);
  EXPECT_TRUE(dec2.sources[0].per_embodiment);
  EXPECT_FALSE(dec2.sources[0].out_in);
  EXPECT_EQ(all.op("enc2a").sources[0].tensor, "action_head.action_encoder.W2.W");
}

TEST(ArenaLayout, OffsetsTableFollowsOps) {
  ArenaLayout layout = layout_of(Version::n15, Variant::steps4, TileFormat::bfp8_b);
  std::vector<uint32_t> table = layout.offsets_table();
  ASSERT_EQ(table.size(), layout.ops.size());
  EXPECT_EQ(table.size(), 16u * 4 + 6);
  for (size_t i = 0; i < table.size(); ++i) EXPECT_EQ(table[i], layout.ops[i].bank_offset);
  // One self block = 20 K-blocks per core, one cross block 16, 12 cores per bank.
  EXPECT_EQ(layout.op("blk1.qkv").bank_offset, 16u * 12 * 17'408);
}

TEST(ArenaLayout, EulerAndRows) {
  ArenaLayout n15 = layout_of(Version::n15, Variant::steps4, TileFormat::bf16);
  EXPECT_TRUE(n15.euler_fp32);
  EXPECT_EQ(n15.m_logical, 49);
  EXPECT_EQ(n15.action_rows[0], 33);
  EXPECT_EQ(n15.action_rows[1], 49);
  EXPECT_EQ(n15.n_future_tokens, 32);
  ArenaLayout n17 = layout_of(Version::n17, Variant::steps4, TileFormat::bf16);
  EXPECT_FALSE(n17.euler_fp32);
  EXPECT_EQ(n17.m_logical, 41);
  EXPECT_EQ(n17.head_dim_pad, 64);
}

TEST(Layouts, N15UsesAll) {
  ArenaLayout layout = layout_of(Version::n15, Variant::steps4, TileFormat::bfp8_b);
  ASSERT_EQ(layout.key_sets.size(), 1u);
  EXPECT_EQ(layout.key_sets[0].keys, KeySet::all);
  EXPECT_EQ(layout.l_pad(KeySet::all), 384);
  EXPECT_EQ(layout.key_sets[0].chunks(), 6);
  EXPECT_TRUE(layout.key_sets[0].split());
  MaskPresence m = mask_presence(layout);
  EXPECT_TRUE(m.all);
  EXPECT_FALSE(m.text || m.image);
}

TEST(Layouts, N16PlansTheImageMask) {
  ArenaLayout layout = layout_of(Version::n16, Variant::steps4, TileFormat::bfp8_b);
  EXPECT_EQ(layout.l_pad(KeySet::text), 64);
  EXPECT_EQ(layout.l_pad(KeySet::image), 96);
  EXPECT_EQ(layout.keys_of(2).l_real, 81);
  EXPECT_EQ(layout.keys_of(2).chunks(), 2);
  EXPECT_FALSE(layout.keys_of(2).split());
  EXPECT_FALSE(layout.keys_of(0).split());
  MaskPresence m = mask_presence(layout);
  EXPECT_TRUE(m.text && m.image);
  EXPECT_FALSE(m.all);
}

TEST(Layouts, N17HasNoImageMask) {
  ArenaLayout layout = layout_of(Version::n17, Variant::steps4, TileFormat::bfp8_b);
  EXPECT_EQ(layout.l_pad(KeySet::image), 448);
  EXPECT_EQ(layout.keys_of(2).chunks(), 7);
  EXPECT_TRUE(layout.keys_of(2).split());
  MaskPresence m = mask_presence(layout);
  EXPECT_TRUE(m.text);
  EXPECT_FALSE(m.image);
}

TEST(Layouts, DerivedFromKeyCounts) {
  model::ModelConfig config = config_of(Version::n16);
  LayoutConfig layout = derive_layout(config, {0, 40, 200}, "custom");
  ASSERT_TRUE(layout.cross_image_keys.has_value());
  EXPECT_EQ(layout.cross_image_keys->second, 224);
  auto shapes = key_set_shapes(config, layout);
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(shapes[0].l_pad, 64);
  EXPECT_EQ(shapes[1].chunks(), 4);
  EXPECT_THROW(derive_layout(config, {0, 0, 81}, "no_text"), Error);
}

TEST(ArenaLayout, RejectsUnplannableShapes) {
  model::ModelConfig config = config_of(Version::n15);
  config.dims.width = 1024;
  try {
    plan_arena(config, default_layout(config_of(Version::n15)), {});
    FAIL() << "width 1024 was planned";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dims.width"), std::string::npos) << e.what();
  }
}

// config.json settings the device program keeps constant are refused by name; the ref and cpu
// backends compute them (tests/cli/test_released_semantics.cpp).
TEST(ArenaLayout, RefusesSettingsTheDeviceProgramKeepsConstant) {
  auto message = [](const model::ModelConfig& config) {
    try {
      plan_arena(config, default_layout(config), {});
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("planned");
  };
  model::ModelConfig steps = config_of(Version::n15);
  steps.n_steps = 8;
  EXPECT_NE(message(steps).find("num_inference_timesteps 8: the megakernel plan runs 4 Euler steps"), std::string::npos);
  model::ModelConfig eps = config_of(Version::n17);
  eps.ff_norm_eps = 1e-6;
  EXPECT_NE(message(eps).find("diffusion_model_cfg.norm_eps 1e-06"), std::string::npos) << message(eps);
}

}  // namespace
}  // namespace ditmk::tt
