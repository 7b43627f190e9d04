// The whole 4-step denoise in one launch (steps4) against the float64 reference: actions and every
// step's velocity, for each version, with the seed's protocol and the simplified one; and the same
// bits as the megakernel recorded before its kernel moved into tt-metal's dialect.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ditmk/tt/host/call_tensors.hpp"
#include "ditmk/tt/host/emu_executor.hpp"
#include "ditmk/tt/host/emu_report.hpp"
#include "ditmk/ref/action_head.hpp"
#include "kernel_fixture.hpp"
#include "recorded_results.hpp"

namespace ditmk::tt::host::testing {
namespace {

struct Gate {
  double cos, rel_l2;
};
constexpr Gate kBf16Gate{0.9999, 1e-2};
constexpr Gate kBfp8Gate{0.998, 1.0};

void expect_agrees(const model::DenoiseResult& got, const model::DenoiseResult& want, Gate gate, const char* what) {
  const Agreement actions = agreement(got.actions, want.actions);
  EXPECT_GE(actions.cos, gate.cos) << what << " actions";
  EXPECT_LE(actions.rel_l2, gate.rel_l2) << what << " actions";
  ASSERT_EQ(got.velocities.size(), want.velocities.size());
  for (std::size_t s = 0; s < want.velocities.size(); ++s) {
    const Agreement v = agreement(got.velocities[s], want.velocities[s]);
    EXPECT_GE(v.cos, gate.cos) << what << " velocity of step " << s;
    EXPECT_LE(v.rel_l2, gate.rel_l2) << what << " velocity of step " << s;
    std::printf("%s step %zu velocity: cos %.6f rel_l2 %.3g\n", what, s, v.cos, v.rel_l2);
  }
  std::printf("%s actions: cos %.6f rel_l2 %.3g\n", what, actions.cos, actions.rel_l2);
}

void check_steps4(model::Version version, TileFormat dtype, Gate gate, Protocol protocol = Protocol::seed) {
  const KernelModel& m = kernel_model(version);
  const EmuExecutor emu(m.weights, kEmbodiment, {dtype, 2, protocol});
  const EmuResult got = emu.denoise(m.obs, m.call, m.noise);
  const std::string what = fmt::format("{} {}", model::version_name(version), protocol_name(protocol));
  expect_agrees(got.denoise, m.reference, gate, what.c_str());
  const uint64_t bits = result_bits_hash(got.denoise);
  const std::optional<uint64_t> recorded = recorded_bits(version, dtype, protocol);
  ASSERT_TRUE(recorded.has_value()) << what << " " << tile_format_name(dtype) << ": no recorded result; this run's is "
                                    << fmt::format("{:#018x}", bits);
  EXPECT_EQ(bits, *recorded) << what << " " << tile_format_name(dtype) << ": not the recorded bits; this run's hash is "
                             << fmt::format("{:#018x}", bits);
  for (const emu::CbHighWater& cb : got.launches.front().report.counters.cb_high_water)
    EXPECT_LE(cb.used_bytes, cb.planned_bytes) << what << " " << cb.name;
  std::printf("wall %.1f s\n", got.launches.front().wall_seconds);
  for (const KeySetShape& keys : got.layout.key_sets) {
    std::printf("key set %s: %d keys, %d padded, %d chunks%s\n", std::string(model::key_set_name(keys.keys)).c_str(),
                keys.l_real, keys.l_pad, keys.chunks(), keys.split() ? ", split over 3 cores" : "");
  }
}

// The N1.5 `all` set and the N1.7 image set are long enough to split over the head's three cores;
// the runs above only test the split merge if that is so.
TEST(KernelSteps4, LongKeySetsOfTheFixturesSplit) {
  for (model::Version version : {model::Version::n15, model::Version::n17}) {
    const model::Weights w = model::load_weights(release_dir(version));
    const LayoutConfig layout = observation_layout(w.config, fixture_observation(w.config));
    bool split = false;
    for (const KeySetShape& keys : key_set_shapes(w.config, layout)) split = split || keys.split();
    EXPECT_TRUE(split) << model::version_name(version);
  }
}

// The opt-in deviation: with mask_padding the megakernel drops the fixture's padding keys (fewer keys,
// no split) and agrees with the reference that drops them, not with the released semantics.
TEST(KernelSteps4, N15MaskPaddingOptIn) {
  const KernelModel& released = kernel_model(model::Version::n15);
  model::Weights w = model::load_weights(release_dir(model::Version::n15));
  w.config.mask_padding = true;
  const ref::ActionHead ref(w, kEmbodiment, 2);
  const model::DenoiseResult want = ref.run(released.obs, released.noise);
  const EmuResult got = EmuExecutor(w, kEmbodiment, {TileFormat::bfp8_b, 2}).denoise(released.obs, released.noise);
  expect_agrees(got.denoise, want, kBfp8Gate, "n15 mask_padding");
  const Agreement apart = agreement(want.actions, released.reference.actions);
  EXPECT_GT(apart.rel_l2, 1e-3) << "masking the padding changes the actions";
  EXPECT_EQ(got.layout.keys_of(0).l_real, 300 - kN15PaddingTokens);
}

TEST(KernelSteps4, N15Bf16) { check_steps4(model::Version::n15, TileFormat::bf16, kBf16Gate); }
TEST(KernelSteps4, N16Bf16) { check_steps4(model::Version::n16, TileFormat::bf16, kBf16Gate); }
TEST(KernelSteps4, N17Bf16) { check_steps4(model::Version::n17, TileFormat::bf16, kBf16Gate); }
TEST(KernelSteps4, N15Bfp8) { check_steps4(model::Version::n15, TileFormat::bfp8_b, kBfp8Gate); }
TEST(KernelSteps4, N16Bfp8) { check_steps4(model::Version::n16, TileFormat::bfp8_b, kBfp8Gate); }
TEST(KernelSteps4, N17Bfp8) { check_steps4(model::Version::n17, TileFormat::bfp8_b, kBfp8Gate); }
// the simplified protocol stays selectable and as accurate (fp32 Euler state for every version)
TEST(KernelSteps4, OnehubN15Bf16) { check_steps4(model::Version::n15, TileFormat::bf16, kBf16Gate, Protocol::onehub); }
TEST(KernelSteps4, OnehubN15Bfp8) {
  check_steps4(model::Version::n15, TileFormat::bfp8_b, kBfp8Gate, Protocol::onehub);
}
TEST(KernelSteps4, OnehubN16Bf16) { check_steps4(model::Version::n16, TileFormat::bf16, kBf16Gate, Protocol::onehub); }
TEST(KernelSteps4, OnehubN16Bfp8) {
  check_steps4(model::Version::n16, TileFormat::bfp8_b, kBfp8Gate, Protocol::onehub);
}
TEST(KernelSteps4, OnehubN17Bf16) { check_steps4(model::Version::n17, TileFormat::bf16, kBf16Gate, Protocol::onehub); }
TEST(KernelSteps4, OnehubN17Bfp8) {
  check_steps4(model::Version::n17, TileFormat::bfp8_b, kBfp8Gate, Protocol::onehub);
}

}  // namespace
}  // namespace ditmk::tt::host::testing
