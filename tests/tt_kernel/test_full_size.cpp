// The released N1.5 geometry end to end: 16 blocks, the 4-layer VL stack, 32 embodiment slots,
// the whole denoise in one steps4 launch with each arena format (slow: ~1.5 min each on 2 cores).
#include <gtest/gtest.h>

#include <chrono>

#include "ditmk/core/parallel.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/ref/action_head.hpp"
#include "ditmk/tt/host/emu_executor.hpp"
#include "ditmk/tt/host/emu_report.hpp"

namespace ditmk::tt::host {
namespace {

struct Gate {
  TileFormat dtype;
  double cos, rel_l2;
};

void check_full_size_n15(Gate gate) {
  const model::Weights w = model::load_weights(model::ensure_default_model(model::Version::n15));
  const int embodiment = w.resolve_embodiment("new_embodiment");
  const model::Observation obs = model::synthetic_observation(w.config, 3);
  const Matrix<double> noise = model::noise_matrix(model::synthetic_noise(w.config, 4).view(), w.config, "noise");
  const int threads = hardware_threads();
  const EmuExecutor emu(w, embodiment, {gate.dtype, threads});
  const auto call = emu.precompute(obs);
  const auto start = std::chrono::steady_clock::now();
  const EmuResult got = emu.denoise(obs, call, noise);
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const ref::ActionHead ref(w, embodiment, threads);
  const VsReference vs = compare_denoise(got.denoise, ref.denoise(call, noise));
  EXPECT_GE(vs.actions.cos, gate.cos);
  EXPECT_GE(vs.min_step_cos, gate.cos);
  EXPECT_LE(vs.actions.rel_l2, gate.rel_l2);
  EXPECT_LE(vs.max_step_rel_l2, gate.rel_l2);
  for (const BlockRow& row : block_table(got)) EXPECT_EQ(row.streamed_bytes, 4 * row.arena_bytes) << row.block;
  std::printf("N1.5 full size steps4 %s: actions cos %.6f rel_l2 %.3g, worst step cos %.6f rel_l2 %.3g\n",
              std::string(tile_format_name(gate.dtype)).c_str(), vs.actions.cos, vs.actions.rel_l2, vs.min_step_cos,
              vs.max_step_rel_l2);
  std::printf("launch %.1f s (emulation), %.1f s with host setup; time lower bound %.0f us (%s)\n",
              got.launches.front().wall_seconds, total, got.launches.front().report.bound.seconds * 1e6,
              got.launches.front().report.bound.limited_by.c_str());
}

TEST(KernelFullSize, N15Steps4Bfp8MatchesTheReference) { check_full_size_n15({TileFormat::bfp8_b, 0.998, 1.0}); }
TEST(KernelFullSize, N15Steps4Bf16MatchesTheReference) { check_full_size_n15({TileFormat::bf16, 0.9999, 1e-2}); }

}  // namespace
}  // namespace ditmk::tt::host
