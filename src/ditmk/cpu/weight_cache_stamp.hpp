#pragma once
// What an open of the weight cache may skip the next time, remembered in a small file per release
// source (folder `stamps/` of the cache folder, named by weight_source_identity):
//   - the key: hashing the checkpoint reads every byte of it (gigabytes); when the weight files
//     still have the identities they had, the key they hashed to is the same;
//   - the check of the cache file's entries: it reads the whole packed file; when the cache file
//     still has the identity it had right after a full check, its bytes are the ones checked.
// A stamp is only ever a shortcut: a missing, unreadable or foreign one means hashing and checking
// in full, as without it, and a stamp that cannot be written is no error.
#include <optional>
#include <string>

#include "ditmk/cpu/weight_digest.hpp"
#include "ditmk/io/mapped_file.hpp"

namespace ditmk::cpu {

struct WeightCacheStamp {
  Digest128 key;               // weight_cache_key of the release source the stamp is named by
  io::FileIdentity checked;    // the cache file's identity after its last full check
};

// The stamp of release source `source` in cache folder `dir`, if one reads back whole.
std::optional<WeightCacheStamp> read_weight_cache_stamp(const std::string& dir, const Digest128& source);
// Writes it (a temporary renamed into place); failures are ignored.
void write_weight_cache_stamp(const std::string& dir, const Digest128& source, const WeightCacheStamp& stamp);

}  // namespace ditmk::cpu
