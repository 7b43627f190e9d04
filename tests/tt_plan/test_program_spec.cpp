// The K1 / K4 program specs: limits on every version / variant / dtype, io order and presence,
// role flags and groups, L1 placement, and each rejected mistake.
#include "support/error_of.hpp"
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/plan/io_slots.hpp"
#include "ditmk/tt/plan/limits.hpp"
#include "ditmk/tt/plan/program_checks.hpp"
#include "plan_fixture.hpp"

namespace ditmk::tt {
namespace {

using model::Version;
using testing::layout_of;
using testing::spec_of;

using ditmk::testing::error_of;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const Version kVersions[] = {Version::n15, Version::n16, Version::n17};
const Variant kVariants[] = {Variant::block, Variant::step, Variant::steps4};
const TileFormat kDtypes[] = {TileFormat::bfp8_b, TileFormat::bf16};

TEST(ProgramSpec, RuntimeArgsAndGroupsWithinLimitsEverywhere) {
  for (Version v : kVersions) {
    for (Variant var : kVariants) {
      for (TileFormat d : kDtypes) {
        for (Kernel k : {Kernel::k1, Kernel::k4}) {
          ProgramSpec spec = spec_of(v, var, d, k);
          DescriptorStats s = spec.stats();
          EXPECT_EQ(s.n_per_core_rt_args, 5);
          EXPECT_LE(s.n_per_core_rt_args + s.n_common_rt_args, 341);
          EXPECT_EQ(s.n_kernel_groups, 4);
          EXPECT_LE(s.n_cbs, 64);
          EXPECT_EQ(s.n_semaphores, 13);
          EXPECT_EQ(spec.cta("common_rt_args_len"), uint32_t(s.n_common_rt_args));
          EXPECT_EQ(spec.cta("offsets_table_base"), uint32_t(spec.io.size() + 2));
          EXPECT_EQ(spec.common_rt_args[spec.io.size() + 1], uint32_t(spec.layout.ops.size()));
        }
      }
    }
  }
}

TEST(ProgramSpec, IoCountsOfTheReleasedSteps4) {
  // 13 fixed slots + 2 per cross block + x_t, state_features, action_pred (+ velocity_out in K4).
  EXPECT_EQ(spec_of(Version::n15, Variant::steps4, TileFormat::bfp8_b, Kernel::k1).io.size(), 13u + 16 + 3);
  EXPECT_EQ(spec_of(Version::n17, Variant::steps4, TileFormat::bfp8_b, Kernel::k4).io.size(), 13u + 32 + 4);
}

TEST(ProgramSpec, Erratum1CommonArgsCountPerCoreWords) {
  // N1.5 step K1 with 64 blocks has 337 common words: the seed's "<= 341" passed it, but with the
  // 5 per-core words a core would need 342.
  ProgramOptions options;
  options.kernel = Kernel::k1;
  ArenaLayout ok = layout_of(Version::n15, Variant::step, TileFormat::bf16, 63);
  EXPECT_EQ(build_program_spec(blackhole_core_map(), ok, options).common_rt_args.size(), 333u);
  ArenaLayout over = layout_of(Version::n15, Variant::step, TileFormat::bf16, 64);
  std::string e = error_of([&] { build_program_spec(blackhole_core_map(), over, options); });
  EXPECT_TRUE(contains(e, "5 per-core + 337 common")) << e;
  EXPECT_TRUE(contains(e, "341")) << e;
  EXPECT_TRUE(contains(e, "336")) << e;
}

TEST(ProgramSpec, OversizedOffsetsTableRejected) {
  ProgramOptions options;
  ArenaLayout layout = layout_of(Version::n17, Variant::steps4, TileFormat::bfp8_b, 64);
  std::string e = error_of([&] { build_program_spec(blackhole_core_map(), layout, options); });
  EXPECT_TRUE(contains(e, "exceed the 341 words")) << e;
}

TEST(ProgramSpec, Erratum2Bf16KBlockIs32768) {
  ArenaLayout layout = layout_of(Version::n16, Variant::steps4, TileFormat::bf16);
  EXPECT_EQ(layout.stream_k_block_bytes(), 32'768u);
  EXPECT_EQ(layout.stream_k_block_bytes(), 8u * 2 * 2048);
  ProgramSpec k1 = spec_of(Version::n16, Variant::steps4, TileFormat::bf16, Kernel::k1);
  EXPECT_EQ(k1.cb("cb_relay").total_bytes, 6u * 32'768);
}

TEST(ProgramSpec, Erratum3OutputSlotLast) {
  const std::pair<Variant, const char*> outputs[] = {
      {Variant::block, "x_out"}, {Variant::step, "y_out"}, {Variant::steps4, "action_pred"}};
  for (auto [variant, name] : outputs) {
    for (Kernel k : {Kernel::k1, Kernel::k4}) {
      ProgramSpec spec = spec_of(Version::n17, variant, TileFormat::bfp8_b, k);
      EXPECT_EQ(spec.io.back().name, name);
      EXPECT_EQ(spec.output_slot, name);
      EXPECT_EQ(spec.common_rt_names[spec.io.size() - 1], std::string("addr_") + name);
    }
  }
  // K4 adds the optional velocity taps before the output, not after it.
  ProgramSpec k4 = spec_of(Version::n15, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  EXPECT_EQ(k4.io[k4.io.size() - 2].name, "velocity_out");
  ProgramSpec bad = k4;
  std::swap(bad.io[bad.io.size() - 1], bad.io[bad.io.size() - 2]);
  EXPECT_TRUE(contains(error_of([&] { check_io(bad); }), "must be last"));
}

TEST(ProgramSpec, MaskSlotsPerVersion) {
  auto required = [](const ProgramSpec& spec, const std::string& name) {
    for (const IoSlot& s : spec.io) {
      if (s.name == name) return s.required;
    }
    ADD_FAILURE() << name << " missing";
    return false;
  };
  ProgramSpec n15 = spec_of(Version::n15, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  EXPECT_TRUE(required(n15, "all_mask"));
  EXPECT_FALSE(required(n15, "text_mask"));
  EXPECT_TRUE(required(n15, "future_tokens"));
  EXPECT_EQ(n15.cta("l_all_pad"), 384u);
  EXPECT_EQ(n15.cta("euler_fp32"), 1u);
  ProgramSpec n16 = spec_of(Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  EXPECT_TRUE(required(n16, "image_mask"));
  EXPECT_EQ(n16.cta("image_mask_present"), 1u);
  EXPECT_EQ(n16.cta("l_img_pad"), 96u);
  EXPECT_FALSE(required(n16, "future_tokens"));
  EXPECT_EQ(n16.cta("euler_fp32"), 0u);
  ProgramSpec n17 = spec_of(Version::n17, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  EXPECT_FALSE(required(n17, "image_mask"));
  EXPECT_EQ(n17.cta("image_mask_present"), 0u);
  EXPECT_EQ(n17.cta("text_mask_present"), 1u);
  EXPECT_EQ(n17.cta("l_img_pad"), 448u);
}

TEST(ProgramSpec, MissingRequiredIoIsAnErrorOutsideDryRuns) {
  ArenaLayout layout = layout_of(Version::n16, Variant::step, TileFormat::bfp8_b, 4);
  ProgramOptions options;
  options.dry_run = false;
  uint64_t address = 0x1000;
  for (const IoSlot& s : io_slots(Kernel::k4, layout)) {
    if (s.required && s.name != "image_mask") options.io[s.name] = address += 0x100;
  }
  std::string e = error_of([&] { build_program_spec(blackhole_core_map(), layout, options); });
  EXPECT_TRUE(contains(e, "'image_mask' is required")) << e;
  options.io["image_mask"] = 0x9000;
  ProgramSpec spec = build_program_spec(blackhole_core_map(), layout, options);
  auto order = spec.io_order();
  size_t at = std::find(order.begin(), order.end(), "image_mask") - order.begin();
  EXPECT_EQ(spec.common_rt_args[at], 0x9000u);
  EXPECT_EQ(spec.common_rt_args[order.size() - 1], options.io.at("y_out"));
  options.io["no_such_tensor"] = 0x100;
  EXPECT_TRUE(contains(error_of([&] { build_program_spec(blackhole_core_map(), layout, options); }), "no_such_tensor"));
}

// The kernel computes every block's attention from two args; the plan names them, and refuses a
// schedule that rule does not give.
TEST(ProgramSpec, BlockScheduleArgsAndAScheduleTheKernelCannotCompute) {
  EXPECT_EQ(spec_of(Version::n15, Variant::steps4, TileFormat::bf16, Kernel::k4).cta("interleave_self_attention"), 1u);
  EXPECT_EQ(spec_of(Version::n15, Variant::steps4, TileFormat::bf16, Kernel::k4).cta("text_every_n_blocks"), 0u);
  EXPECT_EQ(spec_of(Version::n16, Variant::steps4, TileFormat::bf16, Kernel::k4).cta("text_every_n_blocks"), 2u);
  model::ModelConfig config = testing::config_of(Version::n16, 3);
  config.block_keys = {model::KeySet::image, model::KeySet::self_attn, model::KeySet::text};
  ArenaOptions arena;
  arena.variant = Variant::block;
  const ArenaLayout layout = plan_arena(config, default_layout(config), arena);
  EXPECT_TRUE(contains(error_of([&] { build_program_spec(blackhole_core_map(), layout, ProgramOptions{}); }),
                       "the block schedule of 3 blocks is not one the kernel computes"));
}

// K4's compute-core table after the offsets table: every compute core's NoC coordinates, the
// rectangles covering exactly the compute cores, and cb_part's address on them.
TEST(ProgramSpec, K4ComputeCoreTable) {
  const ProgramSpec spec = spec_of(Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  const CoreMap& cm = spec.core_map;
  const uint32_t noc = spec.cta("k4_compute_noc_base");
  for (std::size_t i = 0; i < cm.compute.size(); ++i) {
    const uint32_t xy = spec.common_rt_args.at(noc + i / 2) >> (16 * (i % 2)) & 0xFFFF;
    EXPECT_EQ((Core{int(xy & 0xFF), int(xy >> 8)}), cm.compute[i]) << i;
  }
  const uint32_t rects = spec.cta("k4_compute_rects_base");
  std::vector<Core> covered;
  for (uint32_t i = 0; i < spec.common_rt_args.at(rects); ++i) {
    const uint32_t r = spec.common_rt_args.at(rects + 1 + i);
    for (int y = int(r >> 8 & 0xFF); y <= int(r >> 24); ++y)
      for (int x = int(r & 0xFF); x <= int(r >> 16 & 0xFF); ++x) covered.push_back({x, y});
  }
  std::sort(covered.begin(), covered.end());
  std::vector<Core> compute = cm.compute;
  std::sort(compute.begin(), compute.end());
  EXPECT_EQ(covered, compute);
  EXPECT_EQ(spec.common_rt_args.at(spec.cta("k4_cb_part_address_index")), spec.cb_l1_address.at("compute").at("cb_part"));
  EXPECT_EQ(spec.cta("common_rt_args_len"), spec.common_rt_args.size());
  EXPECT_FALSE(spec_of(Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k1).named_ctas.empty());
  for (const NamedArg& a : spec_of(Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k1).named_ctas)
    EXPECT_NE(a.name, "k4_compute_noc_base") << "K1 has no compute-core table";
}

TEST(ProgramSpec, OversizedWeightRingNamesRoleBytesAndLimit) {
  ProgramOptions options;
  options.kernel = Kernel::k1;
  options.cb_w_slots = 64;
  ArenaLayout layout = layout_of(Version::n15, Variant::steps4, TileFormat::bf16);
  std::string e = error_of([&] { build_program_spec(blackhole_core_map(), layout, options); });
  const uint32_t bytes = 909'312 - 294'912 + 64 * 32'768;
  EXPECT_TRUE(contains(e, "compute L1")) << e;
  EXPECT_TRUE(contains(e, std::to_string(bytes))) << e;
  EXPECT_TRUE(contains(e, std::to_string(kL1UsableBytes))) << e;
  // Within usable L1 but over the K1 acceptance budget.
  options.cb_w_slots = 12;
  e = error_of([&] { build_program_spec(blackhole_core_map(), layout, options); });
  EXPECT_TRUE(contains(e, "budget of 1000000 B")) << e;
}

TEST(ProgramSpec, ChecksRejectBrokenCbs) {
  const ProgramSpec good = spec_of(Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  EXPECT_NO_THROW(check_program(good));
  ProgramSpec dup = good;
  dup.cbs.push_back({"cb_extra", 5, "compute", 2048, 2048, TileFormat::bf16, ""});
  EXPECT_TRUE(contains(error_of([&] { check_cbs(dup); }), "CB id 5 is used by cb_o"));
  ProgramSpec disjoint = good;  // the same id on disjoint cores is allowed
  disjoint.cbs.push_back({"cb_reader_only", 5, "readers", 2048, 2048, TileFormat::bf16, ""});
  EXPECT_NO_THROW(check_cbs(disjoint));
  ProgramSpec page = good;
  page.cbs[2].total_bytes += 100;
  EXPECT_TRUE(contains(error_of([&] { check_cbs(page); }), "not a positive multiple of the page"));
  ProgramSpec range = good;
  range.cbs[3].id = 32;
  EXPECT_TRUE(contains(error_of([&] { check_cbs(range); }), "outside 0..31"));
  ProgramSpec fp32 = good;
  fp32.unpack_to_dest_fp32_cbs = {3};
  EXPECT_TRUE(contains(error_of([&] { check_cbs(fp32); }), "unpacked to dest as fp32"));
  ProgramSpec many = good;
  while (many.cbs.size() <= 64) many.cbs.push_back({"cb_pad", 40, "spare", 2048, 2048, TileFormat::bf16, ""});
  EXPECT_TRUE(contains(error_of([&] { check_cbs(many); }), "exceed the limit of 64"));
}

TEST(ProgramSpec, ChecksRejectBrokenArgsAndGroups) {
  const ProgramSpec good = spec_of(Version::n15, Variant::steps4, TileFormat::bf16, Kernel::k1);
  ProgramSpec cta = good;
  cta.named_ctas.push_back({"n_blocks", 3});
  EXPECT_TRUE(contains(error_of([&] { check_args(cta); }), "'n_blocks' is defined twice"));
  ProgramSpec sem = good;
  sem.semaphores.push_back({"sem_extra", 4, 0});
  EXPECT_TRUE(contains(error_of([&] { check_args(sem); }), "used twice"));
  ProgramSpec groups = good;
  groups.role_flags.push_back({"is_spare", "spare"});
  groups.role_flags.push_back({"is_hub2", "hubs"});
  EXPECT_TRUE(contains(error_of([&] { check_groups_and_l1(groups); }), "kernel groups exceed the limit of 4"));
}

TEST(ProgramSpec, RoleFlagsAndGroups) {
  ProgramSpec k1 = spec_of(Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k1);
  ProgramSpec k4 = spec_of(Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  const CoreMap& cm = k4.core_map;
  EXPECT_EQ(k1.group_of(cm.hub2), "spare");
  EXPECT_EQ(k4.group_of(cm.hub2), "hub");
  EXPECT_EQ(k4.group_of(cm.hub), "hub");
  EXPECT_EQ(k4.group_of(cm.readers[3]), "reader");
  EXPECT_EQ(k4.group_of(cm.compute[95]), "compute");
  for (const KernelGroup& g : k4.kernel_groups()) {
    size_t expected = g.name == "compute" ? 96 : g.name == "reader" ? 8 : g.name == "hub" ? 2 : 4;
    EXPECT_EQ(g.cores.size(), expected) << g.name;
  }
}

// As tt-metal places them: the L1-sharded tensors behind cb_x and cb_a from the top of L1 down, x_rep
// on the compute cores, a_rep (the multicast target) below it at one address on every group; the
// other CBs contiguous upwards from kL1CbBase.
TEST(ProgramSpec, CbL1AddressesFollowTtMetalsPlacement) {
  ProgramSpec spec = spec_of(Version::n17, Variant::steps4, TileFormat::bf16, Kernel::k4);
  const uint32_t x_bytes = spec.cb("cb_x").total_bytes, a_bytes = spec.cb("cb_a").total_bytes;
  EXPECT_EQ(spec.cb_l1_address.at("compute").at("cb_x"), kL1Bytes - x_bytes);
  for (const char* group : {"compute", "reader", "hub", "spare"}) {
    EXPECT_EQ(spec.cb_l1_address.at(group).at("cb_a"), kL1Bytes - x_bytes - a_bytes) << group;
  }
  for (const auto& [group, addresses] : spec.cb_l1_address) {
    std::vector<std::pair<uint32_t, uint32_t>> spans;
    uint32_t end = kL1CbBase, shard_bytes = 0;
    for (const auto& [name, address] : addresses) {
      if (!spec.cb(name).tensor_backed.empty()) {
        shard_bytes += spec.cb(name).total_bytes;
        continue;
      }
      spans.push_back({address, address + spec.cb(name).total_bytes});
      end = std::max(end, address + spec.cb(name).total_bytes);
    }
    std::sort(spans.begin(), spans.end());
    if (!spans.empty()) {
      EXPECT_EQ(spans.front().first, kL1CbBase) << group;  // K4's readers hold cb_a alone
    }
    for (size_t i = 1; i < spans.size(); ++i) ASSERT_EQ(spans[i - 1].second, spans[i].first) << group;
    EXPECT_EQ(end - kL1CbBase + shard_bytes, spec.l1_bytes.at(group)) << group;
    EXPECT_LE(end + kK4L1Margin, spec.cb_l1_address.at(group).at("cb_a")) << group << ": the margin lies between";
  }
}

// A CB reaching into the margin below the shards, and a shard below the usable L1, are refused by name.
TEST(ProgramSpec, ChecksRejectCbsIntoTheShards) {
  const ProgramSpec good = spec_of(Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  EXPECT_NO_THROW(check_groups_and_l1(good));
  ProgramSpec into = good;
  auto& hub = into.cb_l1_address.at("hub");
  const auto cb = std::find_if(hub.begin(), hub.end(), [&](const auto& a) { return into.cb(a.first).tensor_backed.empty(); });
  ASSERT_NE(cb, hub.end());
  cb->second = hub.at("cb_a") - kK4L1Margin - into.cb(cb->first).total_bytes + 32;
  std::string e = error_of([&] { check_groups_and_l1(into); });
  EXPECT_TRUE(contains(e, "hub: " + cb->first + " ends at L1")) << e;
  EXPECT_TRUE(contains(e, "past the CB region end")) << e;
  ProgramSpec low = good;
  low.cb_l1_address.at("compute").at("cb_x") = kL1CbBase - 32;
  e = error_of([&] { check_groups_and_l1(low); });
  EXPECT_TRUE(contains(e, "compute: cb_x (L1-sharded x_rep) would start at L1")) << e;
}

TEST(ProgramSpec, PerCoreArgs) {
  CoreMap cm = blackhole_core_map();
  auto args = cm.per_core_args();
  EXPECT_EQ(args.size(), 110u);
  EXPECT_EQ(args.at(cm.compute[70]), (PerCoreArgs{70, 6, 0, 6, 2}));
  EXPECT_EQ(args.at(cm.readers[5]), (PerCoreArgs{kNotApplicable, 5, kNotApplicable, kNotApplicable, kNotApplicable}));
  EXPECT_EQ(args.at(cm.hub)[4], 0u);
  EXPECT_EQ(args.at(cm.hub2)[4], 1u);
  EXPECT_EQ(cm.n_compute(), 96);
  EXPECT_EQ(cm.spare.size(), 5u);
  EXPECT_EQ(cm.role_of(cm.hub2), Role::spare);
  auto sets = cm.to_core_range_sets();
  EXPECT_EQ(sets.at("all"), (std::vector<CoreRange>{{{0, 0}, {10, 9}}}));
  EXPECT_EQ(sets.at("readers"), (std::vector<CoreRange>{{{10, 0}, {10, 7}}}));
  EXPECT_EQ(sets.at("hubs"), (std::vector<CoreRange>{{{4, 4}, {5, 4}}}));
}

TEST(ProgramSpec, K4RequiresDirectMode) {
  model::ModelConfig config = testing::config_of(Version::n15, 2);
  ArenaOptions options;
  options.reader_mode = ReaderMode::relay;
  ArenaLayout layout = plan_arena(config, default_layout(config), options);
  ProgramOptions k4;
  EXPECT_TRUE(contains(error_of([&] { build_program_spec(blackhole_core_map(), layout, k4); }), "direct mode"));
  ProgramOptions k1;
  k1.kernel = Kernel::k1;
  EXPECT_EQ(build_program_spec(blackhole_core_map(), layout, k1).cta("reader_mode"), 1u);
}

}  // namespace
}  // namespace ditmk::tt
