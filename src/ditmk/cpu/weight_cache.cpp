#include "ditmk/cpu/weight_cache.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <vector>

#include "ditmk/cpu/weight_cache_file.hpp"
#include "ditmk/cpu/weight_cache_key.hpp"
#include "ditmk/cpu/weight_cache_stamp.hpp"

namespace ditmk::cpu {

namespace fs = std::filesystem;

std::string default_weight_cache_dir() {
  if (const char* dir = std::getenv("DITMK_WEIGHT_CACHE"); dir && *dir && std::string_view(dir) != "off") return dir;
  if (const char* cache = std::getenv("DITMK_CACHE"); cache && *cache) return (fs::path(cache) / "packed").string();
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return (fs::path(xdg) / "ditmk" / "packed").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".cache" / "ditmk" / "packed").string();
  return (fs::temp_directory_path() / "ditmk-cache" / "packed").string();
}

std::string weight_cache_dir(const WeightCacheOptions& options) {
  return options.dir.empty() ? default_weight_cache_dir() : options.dir;
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

// The packed weights as views of a cache file that checked out; nullopt when its entries do not
// come in the order and shapes the packing asks for (`why` says how).
std::optional<PackedAtOpen> pack_from(const model::Weights& w, int embodiment, WeightFormat format, int threads,
                                      WeightCacheReader& reader, std::string& why) {
  try {
    PackedAtOpen p = pack(w, embodiment, format, threads, {.from = &reader});
    reader.finish();
    p.entries_checked = reader.entries_checked();
    return p;
  } catch (const WeightCacheMismatch& e) {
    why = e.what();
    return std::nullopt;
  }
}

// Marks the mapped cache file most recently used (eviction's order) and stamps the identity the
// mark leaves, so the next open can skip the entries' check. Only when the file at `path` is still
// the one mapped and unchanged since: a file replaced or written meanwhile is checked next time.
void touch_and_stamp(const std::string& path, const io::FileIdentity& mapped, const std::string& dir,
                     const std::optional<Digest128>& source, const Digest128& key) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  io::FileIdentity now;
  if (io::identity_of(fd, now) && now == mapped && ::futimens(fd, nullptr) == 0 && io::identity_of(fd, now) && source)
    write_weight_cache_stamp(dir, *source, {.key = key, .checked = now});
  ::close(fd);
}

}  // namespace

PackedAtOpen open_packed(const model::Weights& w, int embodiment, WeightFormat format, int threads,
                         const WeightCacheOptions& options) {
  if (!options.enabled || !weight_cache_allowed_by_environment()) return pack(w, embodiment, format, threads, {});
  const uint64_t max_bytes = weight_cache_max_bytes(options.max_bytes);  // a bad value fails before any work
  const std::string dir = weight_cache_dir(options);
  // The key: looked up by the weight files' identities where an earlier open stamped it, else hashed.
  const std::optional<Digest128> source = weight_source_identity(w, format, embodiment);
  const std::optional<WeightCacheStamp> stamp = source ? read_weight_cache_stamp(dir, *source) : std::nullopt;
  const Digest128 key = stamp ? stamp->key : weight_cache_key(w, format, embodiment, threads);
  const std::string path = (fs::path(dir) / fmt::format("{}-{}{}", key.hex(), weight_format_name(format),
                                                        kWeightCacheExtension)).string();
  std::string why;
  if (std::unique_ptr<WeightCacheReader> reader =
          WeightCacheReader::open(path, key, threads, why, stamp ? &stamp->checked : nullptr)) {
    if (std::optional<PackedAtOpen> p = pack_from(w, embodiment, format, threads, *reader, why)) {
      p->use = WeightCacheUse::mapped, p->file = path, p->key_hashed = !stamp;
      touch_and_stamp(path, reader->identity(), dir, source, key);
      return std::move(*p);
    }
  }
  std::error_code exists_error;
  if (fs::exists(path, exists_error)) warn(fmt::format("{}; packing again", why));

  std::error_code ec;
  fs::create_directories(dir, ec);
  WeightCacheWriter writer(path, key);
  PackedAtOpen p = pack(w, embodiment, format, threads, {.to = &writer});
  if (writer.commit()) {
    evict_weight_cache(dir, max_bytes, path);
    // The written file in place of the packed copy, which goes first (the peak memory is one copy):
    // read back and checked once, then mapped.
    p = {};
    std::unique_ptr<WeightCacheReader> reader = WeightCacheReader::open(path, key, threads, why);
    std::optional<PackedAtOpen> mapped;
    if (reader) mapped = pack_from(w, embodiment, format, threads, *reader, why);
    if (mapped) {
      p = std::move(*mapped);
      if (source) write_weight_cache_stamp(dir, *source, {.key = key, .checked = reader->identity()});
    } else {
      warn(fmt::format("{} right after writing it; packing again", why));
      p = pack(w, embodiment, format, threads, {});
    }
    p.use = WeightCacheUse::written, p.file = path;
  } else {
    p.use = WeightCacheUse::unavailable;
    warn(fmt::format("{} (the packed weights are not kept)", writer.error()));
  }
  p.key_hashed = !stamp;
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
  // Stamps are rewritten on each use; one unused for a month names weight files long gone.
  const auto forgotten = fs::file_time_type::clock::now() - std::chrono::hours(24 * 30);
  for (fs::directory_iterator it(fs::path(dir) / "stamps", ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e;
    if (it->path().extension() == ".stamp" && fs::last_write_time(it->path(), e) < forgotten && !e) fs::remove(it->path(), e);
  }
  ec.clear();
  std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.used < b.used; });
  for (const File& f : files) {
    if (total <= max_bytes) break;
    if (f.path == fs::path(keep)) continue;
    std::error_code e;
    if (fs::remove(f.path, e)) total -= f.bytes;
  }
}

}  // namespace ditmk::cpu
