#pragma once
// One weight cache file: the packed matrices and weight-only tables of a model, in the order
// pack_model and pack_embodiment make them, so a later open maps the file and uses them in place.
//
// Layout (little-endian, as the machine writes it):
//   [0, 4096)        header: magic, file version, key, entry count, where the index is, file size,
//                    the index's XXH3-64 and the header's own XXH3-64 over the bytes before it
//   [4096, index)    payload: each entry's bytes at a 64-byte aligned offset (the kernels' loads)
//   [index, end)     index: one fixed record per entry: kind, weight format, name, n, k, offset,
//                    bytes and the XXH3-64 of its bytes
// A file whose header, index or any entry's bytes do not check out is not used (Reader::open says
// why); the entries' digests are checked at open, so a flipped bit anywhere means a re-pack, never
// wrong numbers. An open may skip that check (which reads the whole file) when the file still has
// the identity it had after an earlier full check (weight_cache_stamp.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/packed_weights.hpp"
#include "ditmk/cpu/weight_digest.hpp"

namespace ditmk::io {
class MappedFile;
struct FileIdentity;
}

namespace ditmk::cpu {

// Bump when the file layout changes; files of another version are ignored.
inline constexpr uint32_t kWeightCacheFileVersion = 1;
// The file name's extension, so eviction only ever touches cache files.
inline constexpr std::string_view kWeightCacheExtension = ".packed";

// Thrown by Reader when the entries do not come in the order or shapes the packing asks for (a
// file from a different packing code): the caller packs afresh.
class WeightCacheMismatch : public Error {
 public:
  using Error::Error;
};

struct WeightCacheRecord;  // one entry of the index

class WeightCacheWriter {
 public:
  // Writes beside `path` (a temporary name in the same folder) and renames over it on commit().
  // Failures never throw: the writer stops, remembers why (error()) and commit() writes nothing.
  WeightCacheWriter(std::string path, const Digest128& key);
  ~WeightCacheWriter();  // removes the temporary file unless committed
  WeightCacheWriter(const WeightCacheWriter&) = delete;
  WeightCacheWriter& operator=(const WeightCacheWriter&) = delete;

  void matrix(std::string_view name, const PackedWeights& weights);
  void table(std::string_view name, const std::vector<float>& values);
  // fsync, then rename into place; false (and error() says why) when anything failed.
  bool commit();
  const std::string& error() const { return error_; }

 private:
  void add(uint32_t kind, uint32_t format, std::string_view name, int64_t n, int64_t k, const void* data,
           std::size_t bytes);
  void write_at(uint64_t offset, const void* data, std::size_t bytes);
  void stop(const std::string& why);
  std::string path_, temp_path_, error_;
  Digest128 key_;
  int fd_ = -1;
  uint64_t end_ = 0;  // bytes written so far
  std::vector<WeightCacheRecord> records_;
};

class WeightCacheReader {
 public:
  // The file at `path` mapped and checked against `key`; nullptr (and `why` set) when it is missing
  // or does not check out. `threads` share checking the entries' digests, which is skipped when the
  // mapped file's identity equals `checked` (the identity after an earlier full check).
  static std::unique_ptr<WeightCacheReader> open(const std::string& path, const Digest128& key, int threads,
                                                 std::string& why, const io::FileIdentity* checked = nullptr);
  ~WeightCacheReader();

  // The next entry, which must be this matrix or table (WeightCacheMismatch otherwise).
  PackedWeights matrix(std::string_view name, WeightFormat format, int64_t n, int64_t k);
  std::vector<float> table(std::string_view name, std::size_t count);
  // WeightCacheMismatch unless every entry was taken.
  void finish() const;
  std::size_t bytes() const;
  // The file as mapped, and whether this open checked every entry's digest.
  const io::FileIdentity& identity() const;
  bool entries_checked() const { return entries_checked_; }

 private:
  WeightCacheReader() = default;
  const WeightCacheRecord& next(uint32_t kind, std::string_view name);
  std::shared_ptr<const io::MappedFile> file_;
  std::vector<WeightCacheRecord> records_;
  std::size_t next_ = 0;
  bool entries_checked_ = false;
};

}  // namespace ditmk::cpu
