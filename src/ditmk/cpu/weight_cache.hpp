#pragma once
// The packed-weight cache: opening a release packs its weights once and keeps them in a file of the
// user's cache folder; later opens of the same release, format and packing map that file and use
// the packed weights in place instead of packing again (docs/performance.md, "Opening a head").
//
// One file per weight_cache_key (release content, format, embodiment, packing version), named by
// it. Written whole or not at all (a temporary beside it, fsync, rename); a file that does not
// check out is packed again and rewritten; the folder is kept under a size bound by deleting the
// least recently used files. A folder that cannot be written means no cache, never a failure.
#include <cstdint>
#include <string>

#include "ditmk/cpu/packed_model.hpp"

namespace ditmk::cpu {

inline constexpr uint64_t kDefaultWeightCacheBytes = uint64_t(16) << 30;

struct WeightCacheOptions {
  bool enabled = false;
  std::string dir;                             // empty: default_weight_cache_dir()
  uint64_t max_bytes = kDefaultWeightCacheBytes;  // the folder's bound in bytes (DITMK_WEIGHT_CACHE_MAX_GB overrides)
};

// $DITMK_WEIGHT_CACHE, else $DITMK_CACHE/packed, else $XDG_CACHE_HOME/ditmk/packed, else
// ~/.cache/ditmk/packed (the default model's cache folder, and a folder of its own in it).
std::string default_weight_cache_dir();
// The folder `options` names, else default_weight_cache_dir().
std::string weight_cache_dir(const WeightCacheOptions& options);
// False where DITMK_WEIGHT_CACHE is "off": the environment's way to skip the cache.
bool weight_cache_allowed_by_environment();
// The folder's bound: $DITMK_WEIGHT_CACHE_MAX_GB (GiB, a positive number) where set, else
// `fallback`; Error naming the variable when it is not a positive number.
uint64_t weight_cache_max_bytes(uint64_t fallback);

// What open_packed did, for ModelInfo and the logs.
enum class WeightCacheUse { off, mapped, written, unavailable };
std::string_view weight_cache_use_name(WeightCacheUse use);  // "off", "mapped", "written", "unavailable"

struct PackedAtOpen {
  PackedModel model;
  PackedEmbodiment embodiment;  // `embodiment`'s layers, packed with the model
  WeightCacheUse use = WeightCacheUse::off;
  std::string file;             // the cache file mapped or written
  bool key_hashed = false;      // the checkpoint's tensors were hashed for the key (no stamp held it)
  bool entries_checked = false;  // every entry's digest of the cache file was checked
};

// The model and embodiment `embodiment` packed in `format`: mapped from the cache file when one
// checks out, else packed (and the file written when the cache is enabled, then mapped from it, so
// the process holds the packed weights once, in the pages later opens map). A cache file that does
// not check out, or a folder that cannot be written, prints one warning line to stderr. An open whose
// weight files and cache file are as an earlier open left them reads neither in full
// (weight_cache_stamp.hpp): its cost is the mapping, not the size of the release.
PackedAtOpen open_packed(const model::Weights& weights, int embodiment, WeightFormat format, int threads,
                         const WeightCacheOptions& options);

// Deletes the least recently used cache files of `dir` (by modification time: a mapped file is
// touched on each use) until the rest total at most max_bytes; `keep` is never deleted. Also
// removes temporaries a killed writer left behind (over a day old) and stamps unused for 30 days.
// Errors are ignored.
void evict_weight_cache(const std::string& dir, uint64_t max_bytes, const std::string& keep = "");

}  // namespace ditmk::cpu
