// The plan's K4 ProgramSpec runs on the emulator: its CBs, semaphores and args are where the
// kernel expects them.
#include <gtest/gtest.h>

#include "ditmk/tt/emu/device_api.hpp"
#include "ditmk/tt/emu/from_plan.hpp"
#include "ditmk/tt/plan/layout_config.hpp"
#include "ditmk/tt/plan/program_builder.hpp"
#include "small_program.hpp"

namespace ditmk::tt::emu {
namespace {

ProgramSpec k4_spec(TileFormat dtype) {
  const model::ModelConfig config = model::default_config(model::Version::n15);
  ArenaOptions options;
  options.dtype_stream = dtype;
  ProgramOptions program;
  program.kernel = tt::Kernel::k4;
  return build_program_spec(blackhole_core_map(), plan_arena(config, default_layout(config), options), program);
}

// Every compute core's NCRISC lands one K-block of random bytes in cb_w and gathers a checksum
// word to the hub; TRISC consumes the K-block; the hub waits for all of them.
void k4_probe_kernel() {
  const uint32_t cb_w = get_named_compile_time_arg_val("cb_w");
  const uint32_t block = get_named_compile_time_arg_val("k_block_tiles") * 2;
  const uint32_t gather = get_semaphore(get_named_compile_time_arg_val("sem_gather_noc0"));
  if (get_named_compile_time_arg_val("is_compute")) {
    if (current_processor() == Processor::ncrisc) {
      cb_reserve_back(cb_w, block);
      const uint32_t bytes = block * get_named_compile_time_arg_val("stream_tile_bytes");
      const std::vector<std::byte> data = testing::random_bytes(get_arg_val(0), bytes);
      l1_write(get_write_ptr(cb_w), data.data(), bytes);
      cb_push_back(cb_w, block);
      noc_semaphore_inc(get_noc_addr(get_named_compile_time_arg_val("hub_x"), get_named_compile_time_arg_val("hub_y"),
                                     gather), get_arg_val(0) + 1);
    } else if (current_processor() == Processor::trisc) {
      cb_wait_front(cb_w, block);
      tile_regs_acquire();
      for (uint32_t t = 0; t < block; ++t) copy_tile(cb_w, t, t % kDstTiles);
      tile_regs_commit();
      tile_regs_wait();
      tile_regs_release();
      cb_pop_front(cb_w, block);
    }
  } else if (get_named_compile_time_arg_val("is_hub") && current_processor() == Processor::brisc &&
             get_arg_val(4) == 0) {
    // the sum of compute_idx + 1 over the 96 compute cores
    noc_semaphore_wait(gather, 96 * 97 / 2);
  }
}

TEST(FromPlan, K4SpecLoadsAndRunsWithItsArgs) {
  for (TileFormat dtype : {TileFormat::bfp8_b, TileFormat::bf16}) {
    const ProgramSpec spec = k4_spec(dtype);
    Program program = program_from_plan(spec, k4_probe_kernel);
    EXPECT_EQ(program.cores.size(), kNumCores);
    EXPECT_EQ(program.semaphores.size(), spec.semaphores.size());
    Device device;
    device.load(std::move(program));
    const LaunchReport report = device.launch();
    ASSERT_TRUE(report.clean()) << to_string(report.faults.at(0));
    bool found = false;
    for (const CbHighWater& cb : report.counters.cb_high_water) {
      if (cb.name != "cb_w") continue;
      found = true;
      EXPECT_EQ(cb.used_bytes, 16 * tile_bytes(dtype));
      EXPECT_EQ(cb.planned_bytes, spec.cb("cb_w").total_bytes);
    }
    EXPECT_TRUE(found);
  }
}

}  // namespace
}  // namespace ditmk::tt::emu
