// The packed-weight cache: an engine opened from a mapped cache file computes bit for bit what one
// that packed its weights computes (every weight format, the default and a later embodiment); files
// that do not check out (corrupt, truncated, foreign, another key) are packed again and rewritten;
// the write leaves no temporaries; an unwritable folder means no cache; eviction drops the least
// recently used files; the cache stays off when not enabled or when DITMK_WEIGHT_CACHE=off.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "ditmk/cpu/engine.hpp"
#include "ditmk/cpu/weight_cache.hpp"
#include "ditmk/cpu/weight_cache_file.hpp"
#include "ditmk/cpu/weight_cache_key.hpp"
#include "ditmk/model/synthetic.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::cpu {
namespace {

namespace fs = std::filesystem;
using model::Version;

struct Release {
  testing::TempDir dir;
  std::unique_ptr<model::Weights> weights;
  model::Observation obs;
  Matrix<double> noise;
};

const Release& release() {
  static Release r = [] {
    Release r;
    const std::string path = r.dir / "n15";
    const model::ModelConfig config = model::tiny_config(Version::n15, 4);
    model::write_synthetic_release(config, path, {.dtype = DType::BF16, .seed = 33, .progress = false});
    r.weights = std::make_unique<model::Weights>(model::load_weights(path));
    r.obs = model::synthetic_observation(config, 2);
    r.noise = model::noise_matrix(model::synthetic_noise(config, 3).view(), config, "noise");
    return r;
  }();
  return r;
}

constexpr int kEmbodiment = 1, kOtherEmbodiment = 2;

EngineOptions options(WeightFormat format, const std::string& cache_dir) {
  EngineOptions o{2, format, ""};
  o.weight_cache.enabled = !cache_dir.empty();
  o.weight_cache.dir = cache_dir;
  return o;
}

model::DenoiseResult run(Engine& e, int embodiment) {
  e.use_embodiment(embodiment);
  return e.run(release().obs, release().noise);
}

// Byte-equal actions and velocities.
void expect_identical(const model::DenoiseResult& a, const model::DenoiseResult& b) {
  ASSERT_EQ(a.actions.data.size(), b.actions.data.size());
  EXPECT_EQ(std::memcmp(a.actions.data.data(), b.actions.data.data(), a.actions.data.size() * sizeof(double)), 0);
  ASSERT_EQ(a.velocities.size(), b.velocities.size());
  for (std::size_t s = 0; s < a.velocities.size(); ++s)
    EXPECT_EQ(std::memcmp(a.velocities[s].data.data(), b.velocities[s].data.data(),
                          a.velocities[s].data.size() * sizeof(double)), 0) << "step " << s;
}

// The folder's files, not its stamps/ folder
std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename() != "stamps") files.push_back(entry.path());
  return files;
}

fs::path only_cache_file(const fs::path& dir) {
  const auto files = files_in(dir);
  EXPECT_EQ(files.size(), 1u);
  return files.empty() ? fs::path() : files[0];
}

class WeightCacheFormats : public ::testing::TestWithParam<WeightFormat> {};

TEST_P(WeightCacheFormats, MappedWeightsGiveBitIdenticalActions) {
  testing::TempDir cache;
  const model::Weights& w = *release().weights;
  Engine packed(w, kEmbodiment, options(GetParam(), ""));
  EXPECT_EQ(packed.weight_cache_use(), WeightCacheUse::off);
  Engine writer(w, kEmbodiment, options(GetParam(), cache.path().string()));
  EXPECT_EQ(writer.weight_cache_use(), WeightCacheUse::written);
  Engine mapped(w, kEmbodiment, options(GetParam(), cache.path().string()));
  ASSERT_EQ(mapped.weight_cache_use(), WeightCacheUse::mapped);

  const model::DenoiseResult want = run(packed, kEmbodiment);
  expect_identical(run(writer, kEmbodiment), want);
  expect_identical(run(mapped, kEmbodiment), want);
  // an embodiment the file does not hold is packed on its first use, as without the cache
  expect_identical(run(mapped, kOtherEmbodiment), run(packed, kOtherEmbodiment));
  expect_identical(run(mapped, kEmbodiment), want);
}

INSTANTIATE_TEST_SUITE_P(All, WeightCacheFormats,
                         ::testing::Values(WeightFormat::fp32, WeightFormat::bf16, WeightFormat::bfp8_b, WeightFormat::int8),
                         [](const auto& info) { return std::string(weight_format_name(info.param)); });

// Opens once to write the file, damages it with `damage`, and expects the next open to pack again
// (same actions), rewrite the file, and the one after that to map it.
template <typename Damage>
void expect_repacked_after(Damage damage) {
  testing::TempDir cache;
  const model::Weights& w = *release().weights;
  const EngineOptions o = options(WeightFormat::bf16, cache.path().string());
  Engine first(w, kEmbodiment, o);
  ASSERT_EQ(first.weight_cache_use(), WeightCacheUse::written);
  const model::DenoiseResult want = run(first, kEmbodiment);
  const fs::path file = only_cache_file(cache.path());
  damage(file);
  Engine second(w, kEmbodiment, o);
  EXPECT_EQ(second.weight_cache_use(), WeightCacheUse::written);
  expect_identical(run(second, kEmbodiment), want);
  Engine third(w, kEmbodiment, o);
  EXPECT_EQ(third.weight_cache_use(), WeightCacheUse::mapped);
  expect_identical(run(third, kEmbodiment), want);
  EXPECT_EQ(files_in(cache.path()).size(), 1u);
}

void flip_byte(const fs::path& file, std::uintmax_t offset) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(std::streamoff(offset));
  char c = 0;
  f.read(&c, 1);
  c = char(c ^ 0x10);
  f.seekp(std::streamoff(offset));
  f.write(&c, 1);
}

TEST(WeightCache, AFlippedPayloadByteIsPackedAgain) {
  expect_repacked_after([](const fs::path& file) { flip_byte(file, 4096 + 100); });
}

TEST(WeightCache, AFlippedHeaderByteIsPackedAgain) {
  expect_repacked_after([](const fs::path& file) { flip_byte(file, 20); });
}

TEST(WeightCache, AFlippedIndexByteIsPackedAgain) {
  expect_repacked_after([](const fs::path& file) { flip_byte(file, fs::file_size(file) - 30); });
}

TEST(WeightCache, ATruncatedFileIsPackedAgain) {
  expect_repacked_after([](const fs::path& file) { fs::resize_file(file, fs::file_size(file) / 2); });
  expect_repacked_after([](const fs::path& file) { fs::resize_file(file, 10); });
  expect_repacked_after([](const fs::path& file) { fs::resize_file(file, 0); });
}

TEST(WeightCache, AForeignFileIsPackedAgain) {
  expect_repacked_after([](const fs::path& file) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << std::string(8192, 'x');
  });
}

TEST(WeightCache, AFileOfAnotherKeyIsPackedAgain) {
  // the fp32 file of the same release, under the bf16 file's name
  expect_repacked_after([](const fs::path& file) {
    testing::TempDir other;
    Engine fp32(*release().weights, kEmbodiment, options(WeightFormat::fp32, other.path().string()));
    fs::copy_file(only_cache_file(other.path()), file, fs::copy_options::overwrite_existing);
  });
}

TEST(WeightCache, TheWriteLeavesOneWholeFileAndNoTemporaries) {
  testing::TempDir cache;
  Engine e(*release().weights, kEmbodiment, options(WeightFormat::bfp8_b, cache.path().string()));
  const fs::path file = only_cache_file(cache.path());
  EXPECT_EQ(file.extension(), kWeightCacheExtension);
  std::string why;
  EXPECT_NE(WeightCacheReader::open(file.string(), weight_cache_key(*release().weights, WeightFormat::bfp8_b, kEmbodiment, 1),
                                    1, why), nullptr) << why;
}

TEST(WeightCache, AnUnwritableFolderMeansNoCacheAndTheSameActions) {
  testing::TempDir cache;
  std::ofstream(cache / "file") << "a file where the folder would go";
  Engine e(*release().weights, kEmbodiment, options(WeightFormat::bf16, cache / "file/packed"));
  EXPECT_EQ(e.weight_cache_use(), WeightCacheUse::unavailable);
  Engine packed(*release().weights, kEmbodiment, options(WeightFormat::bf16, ""));
  expect_identical(run(e, kEmbodiment), run(packed, kEmbodiment));
  EXPECT_EQ(files_in(cache.path()).size(), 1u);
}

TEST(WeightCache, OffWritesNothingAndTheEnvironmentTurnsItOff) {
  testing::TempDir cache;
  Engine off(*release().weights, kEmbodiment, options(WeightFormat::bf16, ""));
  EXPECT_EQ(off.weight_cache_use(), WeightCacheUse::off);
  ::setenv("DITMK_WEIGHT_CACHE", "off", 1);
  Engine env_off(*release().weights, kEmbodiment, options(WeightFormat::bf16, cache.path().string()));
  ::unsetenv("DITMK_WEIGHT_CACHE");
  EXPECT_EQ(env_off.weight_cache_use(), WeightCacheUse::off);
  EXPECT_TRUE(files_in(cache.path()).empty());
}

TEST(WeightCache, TheDefaultFolderFollowsTheEnvironment) {
  ::setenv("DITMK_WEIGHT_CACHE", "/some/where", 1);
  EXPECT_EQ(default_weight_cache_dir(), "/some/where");
  ::unsetenv("DITMK_WEIGHT_CACHE");
  ::setenv("DITMK_CACHE", "/cache/root", 1);
  EXPECT_EQ(default_weight_cache_dir(), "/cache/root/packed");
  ::unsetenv("DITMK_CACHE");
}

TEST(WeightCache, TheBoundComesFromTheEnvironmentWhereSet) {
  EXPECT_EQ(weight_cache_max_bytes(123), 123u);
  ::setenv("DITMK_WEIGHT_CACHE_MAX_GB", "0.5", 1);
  EXPECT_EQ(weight_cache_max_bytes(123), uint64_t(1) << 29);
  ::setenv("DITMK_WEIGHT_CACHE_MAX_GB", "lots", 1);
  try {
    weight_cache_max_bytes(123);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "DITMK_WEIGHT_CACHE_MAX_GB: 'lots' is not a positive number of GiB");
  }
  ::unsetenv("DITMK_WEIGHT_CACHE_MAX_GB");
}

TEST(WeightCache, TheKeyNamesFormatAndEmbodimentButNotTheThreadCount) {
  const model::Weights& w = *release().weights;
  const Digest128 key = weight_cache_key(w, WeightFormat::bf16, kEmbodiment, 1);
  EXPECT_EQ(key, weight_cache_key(w, WeightFormat::bf16, kEmbodiment, 2));
  EXPECT_NE(key, weight_cache_key(w, WeightFormat::fp32, kEmbodiment, 1));
  EXPECT_NE(key, weight_cache_key(w, WeightFormat::bf16, kOtherEmbodiment, 1));
}

WeightCacheOptions cache_in(const fs::path& dir) { return {.enabled = true, .dir = dir.string()}; }

// Later opens take the key from the stamp instead of hashing the weights, and skip the entries'
// check while the cache file is as the last open left it; a touched file or a broken stamp brings
// back the full work.
TEST(WeightCacheStamp, LaterOpensSkipTheHashAndTheCheckUntilAFileChanges) {
  testing::TempDir cache;
  const model::Weights& w = *release().weights;
  const auto open = [&] { return open_packed(w, kEmbodiment, WeightFormat::bf16, 2, cache_in(cache.path())); };
  const PackedAtOpen written = open();
  EXPECT_EQ(written.use, WeightCacheUse::written);
  EXPECT_TRUE(written.key_hashed);
  EXPECT_TRUE(written.entries_checked);  // the written file is read back before it is used
  const PackedAtOpen second = open();
  EXPECT_EQ(second.use, WeightCacheUse::mapped);
  EXPECT_FALSE(second.key_hashed);
  EXPECT_FALSE(second.entries_checked);
  EXPECT_FALSE(open().entries_checked);  // the second open's own mark on the file is stamped too

  fs::last_write_time(second.file, fs::file_time_type::clock::now() - std::chrono::hours(1));
  const PackedAtOpen touched = open();
  EXPECT_EQ(touched.use, WeightCacheUse::mapped);
  EXPECT_FALSE(touched.key_hashed);
  EXPECT_TRUE(touched.entries_checked);
  EXPECT_FALSE(open().entries_checked);

  for (const auto& stamp : fs::directory_iterator(cache / "stamps")) fs::resize_file(stamp.path(), 7);
  const PackedAtOpen restamped = open();
  EXPECT_EQ(restamped.use, WeightCacheUse::mapped);
  EXPECT_TRUE(restamped.key_hashed);
  EXPECT_TRUE(restamped.entries_checked);
  EXPECT_FALSE(open().key_hashed);
}

// A weight file rewritten in place (same size, one byte changed) is hashed again, and the actions
// are those of the changed weights, never the cached ones.
TEST(WeightCacheStamp, ARewrittenWeightFileIsHashedAgain) {
  testing::TempDir dir, cache;
  const model::ModelConfig config = model::tiny_config(Version::n15, 4);
  const fs::path path = dir / "release";
  model::write_synthetic_release(config, path.string(), {.dtype = DType::BF16, .seed = 34, .progress = false});
  const EngineOptions o = options(WeightFormat::bf16, cache.path().string());
  // the file and offset of the first DiT block's query weights, which every step multiplies by
  const auto [weights_file, offset] = [&] {
    const model::Weights before = model::load_weights(path.string());
    Engine first(before, kEmbodiment, o);
    EXPECT_EQ(first.weight_cache_use(), WeightCacheUse::written);
    const TensorView q = before.blocks[0].q.weight;
    for (const auto& file : before.checkpoint->files()) {
      std::ifstream in(file->path(), std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const std::size_t at = bytes.find(std::string(reinterpret_cast<const char*>(q.data), 64));
      if (at != std::string::npos) return std::pair{file->path(), at};
    }
    return std::pair{std::string(), std::string::npos};
  }();
  ASSERT_NE(offset, std::string::npos);
  flip_byte(weights_file, offset);  // a low mantissa byte of a bf16 weight
  const model::Weights after = model::load_weights(path.string());
  const PackedAtOpen reopened = open_packed(after, kEmbodiment, WeightFormat::bf16, 2, cache_in(cache.path()));
  EXPECT_TRUE(reopened.key_hashed);
  Engine cached(after, kEmbodiment, o), fresh(after, kEmbodiment, options(WeightFormat::bf16, ""));
  expect_identical(run(cached, kEmbodiment), run(fresh, kEmbodiment));
}

void write_file(const fs::path& path, std::size_t bytes, int hours_ago) {
  std::ofstream(path, std::ios::binary) << std::string(bytes, 'p');
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(hours_ago));
}

TEST(WeightCache, EvictionDropsTheLeastRecentlyUsedFilesBeyondTheBound) {
  testing::TempDir cache;
  const fs::path dir = cache.path();
  write_file(dir / "a.packed", 1000, 5);  // oldest
  write_file(dir / "b.packed", 1000, 4);
  write_file(dir / "c.packed", 1000, 1);
  write_file(dir / "kept.packed", 1000, 9);  // the file just written: never evicted
  write_file(dir / "notes.txt", 5000, 10);   // not a cache file: never touched
  write_file(dir / "x.packed.tmp.1.ab", 10, 48);  // a killed writer's temporary, two days old
  write_file(dir / "y.packed.tmp.2.cd", 10, 0);   // a writer at work now
  evict_weight_cache(dir.string(), 2500, (dir / "kept.packed").string());
  EXPECT_FALSE(fs::exists(dir / "a.packed"));
  EXPECT_FALSE(fs::exists(dir / "b.packed"));
  EXPECT_TRUE(fs::exists(dir / "c.packed"));
  EXPECT_TRUE(fs::exists(dir / "kept.packed"));
  EXPECT_TRUE(fs::exists(dir / "notes.txt"));
  EXPECT_FALSE(fs::exists(dir / "x.packed.tmp.1.ab"));
  EXPECT_TRUE(fs::exists(dir / "y.packed.tmp.2.cd"));
}

TEST(WeightCache, AMappedFileCountsAsRecentlyUsed) {
  testing::TempDir cache;
  const EngineOptions o = options(WeightFormat::bf16, cache.path().string());
  { Engine write(*release().weights, kEmbodiment, o); }
  const fs::path file = only_cache_file(cache.path());
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(100);
  fs::last_write_time(file, old);
  Engine mapped(*release().weights, kEmbodiment, o);
  ASSERT_EQ(mapped.weight_cache_use(), WeightCacheUse::mapped);
  EXPECT_GT(fs::last_write_time(file), old + std::chrono::hours(99));
}

}  // namespace
}  // namespace ditmk::cpu
