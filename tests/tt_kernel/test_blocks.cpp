// The block variant: the first DiT blocks on the emulated chip against the float64 reference,
// block by block, for every version's block kinds (self, cross all / text / image).
#include <gtest/gtest.h>

#include "ditmk/core/rng.hpp"
#include "ditmk/ref/action_head.hpp"
#include "ditmk/tt/host/emu_executor.hpp"
#include "ditmk/tt/host/emu_report.hpp"
#include "kernel_fixture.hpp"

namespace ditmk::tt::host::testing {
namespace {

void check_blocks(model::Version version, int n_blocks, Protocol protocol = Protocol::seed) {
  const KernelModel& m = kernel_model(version);
  const ref::ActionHead ref(m.weights, kEmbodiment, 2);
  const int step = 2;
  // the residual entering block 0: state, future and action tokens of a real step
  Matrix<double> h(m.weights.config.m_rows(), m.weights.config.dims.width);
  CounterRng rng(5, 6);
  for (std::size_t i = 0; i < h.data.size(); ++i) h.data[i] = rng.normal(i);
  const EmuExecutor emu(m.weights, kEmbodiment, {TileFormat::bf16, 2, protocol});
  Matrix<double> want = h;
  for (int b = 0; b < n_blocks; ++b) {
    want = reference_block(m.weights, m.call, ref.step_tables(), b, step, want);
    const EmuResult got = emu.blocks(m.obs, m.call, h, step, b + 1);
    const Agreement a = agreement(got.residual, want);
    EXPECT_GE(a.cos, 0.9999) << "block " << b;
    EXPECT_LE(a.rel_l2, 1e-2) << "block " << b;
    std::printf("%s block %d: cos %.6f rel_l2 %.3g, %.1f s\n", std::string(model::version_name(version)).c_str(), b,
                a.cos, a.rel_l2, got.launches.back().wall_seconds);
  }
}

TEST(KernelBlocks, N15CrossAllThenSelf) { check_blocks(model::Version::n15, 2); }
TEST(KernelBlocks, N17CrossTextSelfCrossImage) { check_blocks(model::Version::n17, 3); }
TEST(KernelBlocks, OnehubN15CrossAllThenSelf) { check_blocks(model::Version::n15, 2, Protocol::onehub); }

}  // namespace
}  // namespace ditmk::tt::host::testing
