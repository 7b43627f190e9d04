#include "ditmk/cpu/weight_cache.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "ditmk/cpu/weight_cache_file.hpp"
#include "ditmk/cpu/weight_cache_key.hpp"

namespace ditmk::cpu {

namespace fs = std::filesystem;

std::string default_weight_cache_dir() {
  if (const char* dir = std::getenv("DITMK_WEIGHT_CACHE"); dir && *dir && std::string_view(dir) != "off") return dir;
  if (const char* cache = std::getenv("DITMK_CACHE"); cache && *cache) return (fs::path(cache) / "packed").string();
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return (fs::path(xdg) / "ditmk" / "packed").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".cache" / "ditmk" / "packed").string();
  return (fs::temp_directory_path() / "ditmk-cache" / "packed").string();
}

bool weight_cache_allowed_by_environment() {
  const char* dir = std::getenv("DITMK_WEIGHT_CACHE");
  return dir == nullptr || std::string_view(dir) != "off";
}

uint64_t weight_cache_max_bytes(uint64_t fallback) {
  const char* value = std::getenv("DITMK_WEIGHT_CACHE_MAX_GB");
  if (value == nullptr || *value == '\0') return fallback;
  char* end = nullptr;
  const double gib = std::strtod(value, &end);
  if (end == value || *end != '\0' || !(gib > 0) || gib > 1e9)
    fail("DITMK_WEIGHT_CACHE_MAX_GB: '{}' is not a positive number of GiB", value);
  return uint64_t(gib * double(uint64_t(1) << 30));
}

std::string_view weight_cache_use_name(WeightCacheUse use) {
  switch (use) {
    case WeightCacheUse::off: return "off";
    case WeightCacheUse::mapped: return "mapped";
    case WeightCacheUse::written: return "written";
    case WeightCacheUse::unavailable: return "unavailable";
  }
  return "off";
}

namespace {

PackedAtOpen pack(const model::Weights& w, int embodiment, WeightFormat format, int threads, PackCache cache) {
  PackedAtOpen p;
  p.model = pack_model(w, format, threads, cache);
  p.embodiment = pack_embodiment(w, embodiment, p.model, threads, cache);
  return p;
}

void warn(const std::string& what) { fmt::print(stderr, "warning: weight cache: {}\n", what); }

}  // namespace

PackedAtOpen open_packed(const model::Weights& w, int embodiment, WeightFormat format, int threads,
                         const WeightCacheOptions& options) {
  if (!options.enabled || !weight_cache_allowed_by_environment()) return pack(w, embodiment, format, threads, {});
  const uint64_t max_bytes = weight_cache_max_bytes(options.max_bytes);  // a bad value fails before any work
  const std::string dir = options.dir.empty() ? default_weight_cache_dir() : options.dir;
  const Digest128 key = weight_cache_key(w, format, embodiment, threads);
  const std::string path = (fs::path(dir) / fmt::format("{}-{}{}", key.hex(), weight_format_name(format),
                                                        kWeightCacheExtension)).string();
  std::string why;
  if (std::unique_ptr<WeightCacheReader> reader = WeightCacheReader::open(path, key, threads, why)) {
    try {
      PackedAtOpen p = pack(w, embodiment, format, threads, {.from = reader.get()});
      reader->finish();
      p.use = WeightCacheUse::mapped, p.file = path;
      ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // most recently used now, for eviction
      return p;
    } catch (const WeightCacheMismatch& e) {
      why = e.what();
    }
  }
  std::error_code exists_error;
  if (fs::exists(path, exists_error)) warn(fmt::format("{}; packing again", why));

  std::error_code ec;
  fs::create_directories(dir, ec);
  WeightCacheWriter writer(path, key);
  PackedAtOpen p = pack(w, embodiment, format, threads, {.to = &writer});
  if (writer.commit()) {
    p.use = WeightCacheUse::written, p.file = path;
    evict_weight_cache(dir, max_bytes, path);
  } else {
    p.use = WeightCacheUse::unavailable;
    warn(fmt::format("{} (the packed weights are not kept)", writer.error()));
  }
  return p;
}

void evict_weight_cache(const std::string& dir, uint64_t max_bytes, const std::string& keep) {
  struct File {
    fs::path path;
    uint64_t bytes;
    fs::file_time_type used;
  };
  std::vector<File> files;
  uint64_t total = 0;
  std::error_code ec;
  const auto stale = fs::file_time_type::clock::now() - std::chrono::hours(24);
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    std::error_code e;
    const fs::file_time_type used = fs::last_write_time(p, e);
    if (e || !it->is_regular_file(e)) continue;
    if (name.find(std::string(kWeightCacheExtension) + ".tmp.") != std::string::npos) {
      if (used < stale) fs::remove(p, e);
      continue;
    }
    if (!name.ends_with(kWeightCacheExtension)) continue;
    const uint64_t bytes = fs::file_size(p, e);
    if (e) continue;
    files.push_back({p, bytes, used});
    total += bytes;
  }
  std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.used < b.used; });
  for (const File& f : files) {
    if (total <= max_bytes) break;
    if (f.path == fs::path(keep)) continue;
    std::error_code e;
    if (fs::remove(f.path, e)) total -= f.bytes;
  }
}

}  // namespace ditmk::cpu
