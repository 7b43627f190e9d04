// The kernel's io table (io_table.hpp) is the plan's io slot order: every slot of the K4 program of
// every version and variant sits at the index the kernel computes for it.
#include <gtest/gtest.h>

#include "ditmk/tt/kernel/io_table.hpp"
#include "tt_plan/plan_fixture.hpp"

namespace ditmk::tt::kernel {
namespace {

TEST(IoTable, IsThePlansIoOrder) {
  const std::pair<const char*, Io> fixed[] = {
      {"x_rep", Io::x_rep},         {"a_rep", Io::a_rep},         {"arena_stream", Io::arena_stream},
      {"arena_small", Io::arena_small}, {"adaln_rows", Io::adaln_rows}, {"bias_rows", Io::bias_rows},
      {"b2_step", Io::b2_step},     {"b3_pos_rows", Io::b3_pos_rows}, {"future_tokens", Io::future_tokens},
      {"self_mask", Io::self_mask}, {"text_mask", Io::text_mask}, {"image_mask", Io::image_mask},
      {"all_mask", Io::all_mask}};
  const std::pair<const char*, OutIo> outs[] = {{"x_out", OutIo::x_out},   {"y_out", OutIo::y_out},
                                                {"x_t", OutIo::x_t},       {"state_features", OutIo::state_features},
                                                {"velocity_out", OutIo::velocity_out},
                                                {"action_pred", OutIo::action_pred}};
  int checked = 0;
  for (model::Version version : {model::Version::n15, model::Version::n16, model::Version::n17}) {
    for (Variant variant : {Variant::block, Variant::step, Variant::steps4}) {
      const ProgramSpec spec = tt::testing::spec_of(version, variant, TileFormat::bf16, Kernel::k4);
      const BlockSchedule schedule = block_schedule([&](const char* name) { return spec.cta(name); });
      std::map<std::string, uint32_t> index;
      for (std::size_t i = 0; i < spec.io.size(); ++i) index[spec.io[i].name] = uint32_t(i);
      for (const auto& [name, io] : fixed) {
        EXPECT_EQ(index.at(name), uint32_t(io)) << name;
        ++checked;
      }
      for (uint32_t b = 0; b < uint32_t(spec.layout.n_blocks); ++b) {
        if (!spec.layout.is_cross(int(b))) continue;
        EXPECT_EQ(index.at("kv_k_" + std::to_string(b)), kv_io(schedule, b, false)) << b;
        EXPECT_EQ(index.at("kv_v_" + std::to_string(b)), kv_io(schedule, b, true)) << b;
        checked += 2;
      }
      for (const auto& [name, io] : outs) {
        if (index.count(name) == 0) continue;
        EXPECT_EQ(index.at(name), out_io(schedule, uint32_t(spec.layout.n_blocks), io)) << name;
        ++checked;
      }
      EXPECT_EQ(int(spec.io.size()), int(spec.cta("n_io_tensors")));
    }
  }
  EXPECT_EQ(checked, 9 * 13 + 2 * 3 * (8 + 16 + 16) + 3 * (1 + 1 + 4));
}

}  // namespace
}  // namespace ditmk::tt::kernel
