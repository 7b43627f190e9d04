// The plan's L1 map is the one tt-metal derives from the program: the megakernel's CBs and the
// L1-sharded tensors behind cb_x / cb_a, listed as a ProgramDescriptor lists them (the CBs in the
// plan's placement order: the whole grid's first), placed by dialect::l1_layout, land at the
// address the plan gives each CB on every kernel group, for K1 and K4, each version and stream
// format. This is the L1 half of the plan -> descriptor round trip.
#include <gtest/gtest.h>

#include "ditmk/tt/dialect/descriptor.hpp"
#include "ditmk/tt/plan/program_builder.hpp"
#include "tt_plan/plan_fixture.hpp"

namespace ditmk::tt::dialect {
namespace {

CoreRangeSet ranges_of(const ProgramSpec& spec, const std::string& set) {
  CoreRangeSet ranges;
  const std::map<std::string, std::vector<tt::CoreRange>> sets = spec.core_map.to_core_range_sets();
  for (const tt::CoreRange& r : sets.at(set)) {
    ranges.push_back({{uint32_t(r.start.x), uint32_t(r.start.y)}, {uint32_t(r.end.x), uint32_t(r.end.y)}});
  }
  return ranges;
}

DataFormat data_format_of(TileFormat format) {
  switch (format) {
    case TileFormat::bf16: return DataFormat::float16_b;
    case TileFormat::bfp8_b: return DataFormat::bfp8_b;
    case TileFormat::fp32: return DataFormat::float32;
  }
  return DataFormat::float16_b;
}

// The CBs and their backing tensors of the plan as a descriptor lists them; `order` gets the plan CB
// of each descriptor CB.
ProgramDescriptor l1_program(const ProgramSpec& spec, std::vector<const CBSpec*>& order) {
  ProgramDescriptor program;
  program.file = "plan.json";
  for (const CBSpec& cb : spec.cbs) {
    if (cb.tensor_backed.empty()) continue;
    TensorDescriptor t;
    t.name = cb.tensor_backed, t.memory = TensorMemory::l1_sharded, t.data_format = data_format_of(cb.format);
    t.cores = ranges_of(spec, cb.role_set), t.shard_size = cb.total_bytes;
    program.tensors.push_back(t);
    order.push_back(&cb);
  }
  for (bool whole_grid : {true, false}) {
    for (const CBSpec& cb : spec.cbs) {
      if (cb.tensor_backed.empty() && (cb.role_set == "all") == whole_grid) order.push_back(&cb);
    }
  }
  for (const CBSpec* cb : order) {
    program.cbs.push_back({cb->total_bytes, ranges_of(spec, cb->role_set),
                           {{uint32_t(cb->id), data_format_of(cb->format), cb->page_bytes}}, cb->tensor_backed});
  }
  return program;
}

TEST(PlanL1, TtMetalsPlacementGivesThePlansAddresses) {
  int checked = 0;
  for (model::Version version : {model::Version::n15, model::Version::n16, model::Version::n17}) {
    for (TileFormat dtype : {TileFormat::bf16, TileFormat::bfp8_b}) {
      for (Kernel kernel : {Kernel::k1, Kernel::k4}) {
        const ProgramSpec spec = tt::testing::spec_of(version, Variant::steps4, dtype, kernel);
        std::vector<const CBSpec*> order;
        const L1Layout layout = l1_layout(l1_program(spec, order));
        ASSERT_EQ(layout.cb_addresses.size(), order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
          for (const tt::Core core : spec.core_map.cores_of(order[i]->role_set)) {
            EXPECT_EQ(layout.cb_addresses[i], spec.cb_l1_address.at(spec.group_of(core)).at(order[i]->name))
                << model::version_name(version) << " " << tile_format_name(dtype) << " " << kernel_name(kernel) << " "
                << order[i]->name << " on (" << core.x << "," << core.y << ")";
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 12 * 110);
}

}  // namespace
}  // namespace ditmk::tt::dialect
