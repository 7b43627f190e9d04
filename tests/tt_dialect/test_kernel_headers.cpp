// The megakernel's freestanding headers (src/ditmk/tt/kernel: op geometry, block schedule, io
// table, tile builders, lists and the shared constants) compile as tt-metal dialect kernel code against the
// device headers alone, for every processor, with the named args of the plan's own descriptor: the
// kernel compiler refuses any host header they might pull in, and they pull in no hosted standard
// header either.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
#include "ditmk/tt/program/plan_descriptor.hpp"
#include "support/temp_dir.hpp"
#include "tt_plan/plan_fixture.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

const char* const kFreestandingHeaders[] = {"op_geometry.hpp",   "block_schedule.hpp", "io_table.hpp",
                                            "tile_builders.hpp", "masked_score.hpp",   "program_shape.hpp",
                                            "small_list.hpp",    "zone_tags.hpp"};

// Uses every header with the program's named args, so nothing is left out of the build.
const char* const kKernel = R"(#include <stdint.h>

#include "block_schedule.hpp"
#include "io_table.hpp"
#include "masked_score.hpp"
#include "op_geometry.hpp"
#include "program_shape.hpp"
#include "small_list.hpp"
#include "tile_builders.hpp"
#include "zone_tags.hpp"

using namespace ditmk::tt::kernel;

volatile uint32_t sink;

void kernel_main() {
  auto named = [](const char* name) { return get_named_compile_time_arg_val(name); };
  const ArenaDims dims = arena_dims(named);
  const BlockSchedule schedule = block_schedule(named);
  uint32_t sum = 0;
  for (uint32_t b = 0; b < dims.n_blocks; ++b) {
    const BlockKeys keys = block_keys(schedule, b);
    for (uint32_t c = 0; c < kComputeCores; ++c) sum += block_op_slice(dims, b, BlockOp::ff2, keys != BlockKeys::self, c).offset;
    if (keys != BlockKeys::self) sum += kv_io(schedule, b, true) + key_chunks(schedule, keys) + uint32_t(mask_io(keys));
  }
  sum += tail_op_slice(dims, TailOp::dec2, 3).bytes + out_io(schedule, dims.n_blocks, OutIo::action_pred);
  const Bf16Tile fill = column_fill_tile(2, kMaskedScore);
  SmallList<IndexPair, 4> pairs = {{1, 2}, {3, 4}};
  for (const IndexPair& p : pairs) sum += p.first * p.second;
  sink = sum + fill[tile_index(3, 4)] + uint32_t(ProgramVariant::steps4) + uint32_t(block_tag(1, 2) >> 32) + sizeof(DIT_ROUND_RECORD);
}
)";

TEST(KernelHeaders, CompileAgainstTheDeviceHeadersAloneOnEveryProcessor) {
  ditmk::testing::TempDir dir;
  const fs::path kernel_dir = dir.path() / "kernel";
  fs::create_directories(kernel_dir);
  for (const char* header : kFreestandingHeaders)
    fs::copy_file(fs::path(ditmk::build::source_dir()) / "src/ditmk/tt/kernel" / header, kernel_dir / header);
  std::ofstream(kernel_dir / "headers.cpp") << kKernel;
  const ProgramSpec spec = tt::testing::spec_of(model::Version::n16, Variant::steps4, TileFormat::bfp8_b, Kernel::k4);
  const ProgramDescriptor program = plan_descriptor(spec, "headers.cpp", kernel_dir);
  KernelCompiler compiler(dir.path() / "cache");
  for (emu::Processor processor : {emu::Processor::ncrisc, emu::Processor::brisc, emu::Processor::trisc}) {
    KernelBuild build;
    build.source = kernel_dir / "headers.cpp";
    build.source_name = "headers.cpp";
    build.processor = processor;
    build.named_args = program.kernels.front().named_compile_time_args;
    const std::shared_ptr<LoadedKernel> kernel = compiler.load(build);
    ASSERT_NE(kernel, nullptr) << emu::processor_name(processor);
    // freestanding: not even a hosted standard header, which would only warn
    EXPECT_EQ(kernel->warnings(), std::vector<std::string>{}) << emu::processor_name(processor);
  }
  EXPECT_EQ(compiler.stats().compiled, 3u);
}

}  // namespace
}  // namespace ditmk::tt::dialect
