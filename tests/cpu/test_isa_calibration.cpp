// The engine's path chosen by measurement: the fastest candidate wins only by more than the margin,
// the choice is measured once and then read from the cache file, and a cache file that is corrupt,
// truncated, foreign or incomplete is measured again with one warning, never used.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "ditmk/cpu/engine.hpp"
#include "ditmk/cpu/isa_calibration.hpp"
#include "ditmk/model/synthetic.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::cpu {
namespace {

namespace fs = std::filesystem;

TEST(PickIsa, TheLadderOrderStandsUnlessAnotherPathIsClearlyFaster) {
  EXPECT_EQ(pick_isa({{Isa::avx2, 10.0}, {Isa::avx512f, 8.0}, {Isa::avx512_bf16, 9.9}}), Isa::avx512f);
  EXPECT_EQ(pick_isa({{Isa::avx2, 10.0}, {Isa::avx512f, 9.8}, {Isa::avx512_bf16, 10.0}}), Isa::avx512_bf16);
  EXPECT_EQ(pick_isa({{Isa::avx2, 12.0}, {Isa::avx512f, 11.0}, {Isa::avx512_bf16, 10.0}}), Isa::avx512_bf16);
  EXPECT_EQ(pick_isa({{Isa::avx2, 5.0}}), Isa::avx2);
}

TEST(IsaCandidates, FromAvx2UpToTheCapAndPortableOnlyAlone) {
  const std::vector<Isa> all = isa_candidates(Isa::amx_bf16);
  ASSERT_FALSE(all.empty());
  if (isa_supported(Isa::avx2)) {
    EXPECT_EQ(all.front(), Isa::avx2);
    EXPECT_EQ(all.back(), detected_isa());
    EXPECT_EQ(isa_candidates(Isa::avx2), std::vector<Isa>{Isa::avx2});
  }
  EXPECT_EQ(isa_candidates(Isa::portable), std::vector<Isa>{Isa::portable});
}

TEST(CpuSignature, NamesTheCpuAndTheThreads) {
  const std::string one = cpu_signature(1), two = cpu_signature(2);
  EXPECT_NE(one, two);
  EXPECT_NE(one.find("family"), std::string::npos) << one;
  EXPECT_NE(one.find("caches"), std::string::npos) << one;
  EXPECT_EQ(one, cpu_signature(1));
}

// A stand-in for the head's products: fixed times per path, and a count of timings taken.
struct FakeTimer {
  std::map<Isa, double> ms;
  int calls = 0;
  std::function<double(Isa)> fn() {
    return [this](Isa isa) {
      ++calls;
      return ms.at(isa);
    };
  }
};

const std::vector<Isa> kTwo = {Isa::portable, Isa::avx2};

fs::path only_file(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  EXPECT_EQ(files.size(), 1u);
  return files.empty() ? fs::path() : files[0];
}

TEST(CalibrateIsa, MeasuresOnceThenReadsTheCache) {
  testing::TempDir dir;
  FakeTimer timer{{{Isa::portable, 5.0}, {Isa::avx2, 10.0}}};
  const IsaChoice first = calibrate_isa(WeightFormat::bf16, kTwo, "cpu A", dir.path().string(), timer.fn());
  EXPECT_EQ(first.source, "measured");
  EXPECT_EQ(first.isa, Isa::portable);
  EXPECT_EQ(timer.calls, 2 * kCalibrationRounds);
  ASSERT_EQ(first.timings.size(), 2u);
  EXPECT_EQ(first.timings[1].ms, 10.0);

  const IsaChoice second = calibrate_isa(WeightFormat::bf16, kTwo, "cpu A", dir.path().string(), timer.fn());
  EXPECT_EQ(second.source, "cached");
  EXPECT_EQ(second.isa, Isa::portable);
  EXPECT_EQ(second.timings[0].ms, 5.0);
  EXPECT_EQ(timer.calls, 2 * kCalibrationRounds);  // nothing timed

  // another format is measured and kept beside the first in the same file
  const IsaChoice int8 = calibrate_isa(WeightFormat::int8, kTwo, "cpu A", dir.path().string(), timer.fn());
  EXPECT_EQ(int8.source, "measured");
  EXPECT_EQ(calibrate_isa(WeightFormat::bf16, kTwo, "cpu A", dir.path().string(), timer.fn()).source, "cached");
  EXPECT_EQ(only_file(dir.path()), fs::path(first.cache_file));
}

TEST(CalibrateIsa, OneCandidateIsNotTimed) {
  testing::TempDir dir;
  FakeTimer timer{{{Isa::avx2, 1.0}}};
  const IsaChoice c = calibrate_isa(WeightFormat::bf16, {Isa::avx2}, "cpu A", dir.path().string(), timer.fn());
  EXPECT_EQ(c.source, "only candidate");
  EXPECT_EQ(c.isa, Isa::avx2);
  EXPECT_EQ(timer.calls, 0);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// Writes the cache file of "cpu A", damages it, and expects the next choice to be measured again
// with one warning line naming the file.
template <typename Damage>
void expect_measured_again(Damage damage, const std::string& reason) {
  testing::TempDir dir;
  FakeTimer timer{{{Isa::portable, 5.0}, {Isa::avx2, 10.0}}};
  const IsaChoice first = calibrate_isa(WeightFormat::bf16, kTwo, "cpu A", dir.path().string(), timer.fn());
  damage(fs::path(first.cache_file));
  ::testing::internal::CaptureStderr();
  const IsaChoice again = calibrate_isa(WeightFormat::bf16, kTwo, "cpu A", dir.path().string(), timer.fn());
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(again.source, "measured");
  EXPECT_EQ(again.isa, Isa::portable);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find(first.cache_file), std::string::npos) << err;
  EXPECT_NE(err.find(reason), std::string::npos) << err;
  EXPECT_EQ(calibrate_isa(WeightFormat::bf16, kTwo, "cpu A", dir.path().string(), timer.fn()).source, "cached");
}

void rewrite(const fs::path& file, const std::string& from, const std::string& to) {
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, from.size(), to);
  std::ofstream(file, std::ios::trunc) << text;
}

TEST(CalibrateIsa, ACorruptFileIsMeasuredAgain) {
  expect_measured_again([](const fs::path& f) { std::ofstream(f, std::ios::trunc) << "{ not json"; }, "corrupt");
}

TEST(CalibrateIsa, ATruncatedFileIsMeasuredAgain) {
  expect_measured_again([](const fs::path& f) { fs::resize_file(f, fs::file_size(f) / 2); }, "truncated");
  expect_measured_again([](const fs::path& f) { fs::resize_file(f, 0); }, "truncated");
}

TEST(CalibrateIsa, AFileOfAnotherCpuIsMeasuredAgain) {
  expect_measured_again([](const fs::path& f) { rewrite(f, "cpu A", "cpu B"); }, "another CPU");
}

TEST(CalibrateIsa, AnIncompleteEntryIsMeasuredAgain) {
  expect_measured_again([](const fs::path& f) { rewrite(f, "\"avx2\": 10.0", "\"avx9\": 10.0"); }, "incomplete");
  expect_measured_again([](const fs::path& f) { rewrite(f, "\"isa\": \"portable\"", "\"isa\": \"amx\""); },
                        "not a candidate");
}

TEST(CalibrateIsa, AnotherSignatureHasItsOwnFile) {
  testing::TempDir dir;
  FakeTimer timer{{{Isa::portable, 5.0}, {Isa::avx2, 10.0}}};
  const IsaChoice a = calibrate_isa(WeightFormat::bf16, kTwo, "cpu A", dir.path().string(), timer.fn());
  const IsaChoice b = calibrate_isa(WeightFormat::bf16, kTwo, "cpu A, 4 threads", dir.path().string(), timer.fn());
  EXPECT_EQ(b.source, "measured");
  EXPECT_NE(a.cache_file, b.cache_file);
}

// A tiny two-block N1.5 release in `dir`, loaded.
model::Weights tiny_weights(const testing::TempDir& dir, uint64_t seed) {
  model::write_synthetic_release(model::tiny_config(model::Version::n15, 2), dir / "n15",
                                 {.dtype = DType::BF16, .seed = seed, .progress = false});
  return model::load_weights(dir / "n15");
}

// The engine: a cap forces the path; without one the choice is measured or read, among this CPU's
// candidates, and the engine runs it.
TEST(EngineIsaChoice, ACapForcesThePathOtherwiseTheCandidatesAreCalibrated) {
  testing::TempDir dir, cache;
  const model::Weights w = tiny_weights(dir, 5);
  EngineOptions o{2, WeightFormat::bf16, "avx2"};
  o.weight_cache.dir = cache.path().string();
  if (isa_supported(Isa::avx2)) {
    const Engine forced(w, 1, o);
    EXPECT_EQ(forced.isa_choice().source, "forced");
    EXPECT_EQ(forced.isa(), Isa::avx2);
  }
  o.isa.clear();
  const Engine chosen(w, 1, o);
  const std::vector<Isa> candidates = isa_candidates(detected_isa());
  EXPECT_EQ(chosen.isa(), chosen.isa_choice().isa);
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), chosen.isa()), candidates.end());
  if (candidates.size() == 1) {
    EXPECT_EQ(chosen.isa_choice().source, "only candidate");
  } else {
    EXPECT_EQ(chosen.isa_choice().source, "measured");
    EXPECT_EQ(chosen.isa_choice().timings.size(), candidates.size());
    EXPECT_EQ(Engine(w, 1, o).isa_choice().source, "cached");
  }
}

// The engine's own timing of its products: with two candidates here (plain C++ and AVX2) it measures
// both, runs the one it picked, and computes what an engine forced onto that path computes.
TEST(EngineIsaChoice, TheMeasuredPathIsThePathThatRuns) {
  if (!isa_supported(Isa::avx2)) GTEST_SKIP() << "no AVX2";
  testing::TempDir dir, cache;
  const model::Weights w = tiny_weights(dir, 6);
  const model::ModelConfig& config = w.config;
  EngineOptions o{2, WeightFormat::bf16, ""};
  o.weight_cache.dir = cache.path().string();
  o.calibration_candidates = {Isa::portable, Isa::avx2};
  Engine chosen(w, 1, o);
  ASSERT_EQ(chosen.isa_choice().source, "measured");
  ASSERT_EQ(chosen.isa_choice().timings.size(), 2u);
  for (const IsaTiming& t : chosen.isa_choice().timings) EXPECT_GT(t.ms, 0.0) << isa_name(t.isa);
  EXPECT_EQ(chosen.isa(), pick_isa(chosen.isa_choice().timings));
  EngineOptions forced_options{2, WeightFormat::bf16, std::string(isa_name(chosen.isa()))};
  Engine forced(w, 1, forced_options);
  const model::Observation obs = model::synthetic_observation(config, 1);
  const Matrix<double> noise = model::noise_matrix(model::synthetic_noise(config, 2).view(), config, "noise");
  EXPECT_EQ(chosen.run(obs, noise).actions.data, forced.run(obs, noise).actions.data);
}

}  // namespace
}  // namespace ditmk::cpu
