#include "ditmk/cpu/weight_cache_stamp.hpp"

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "ditmk/core/error.hpp"
#include "ditmk/io/atomic_file.hpp"

namespace ditmk::cpu {

namespace {

namespace fs = std::filesystem;

constexpr std::array<char, 8> kMagic = {'D', 'I', 'T', 'M', 'K', 'S', 'T', '\n'};
constexpr uint32_t kStampVersion = 1;

struct StampFile {
  std::array<char, 8> magic;
  uint32_t version, bytes;
  uint64_t key_low, key_high;
  uint64_t device, inode, size;
  int64_t modified_ns, changed_ns;
  uint64_t digest;  // XXH3-64 of every byte above
};
static_assert(sizeof(StampFile) == 80);

uint64_t digest_of(const StampFile& s) {
  return digest64({reinterpret_cast<const std::byte*>(&s), offsetof(StampFile, digest)});
}

fs::path stamp_path(const std::string& dir, const Digest128& source) {
  return fs::path(dir) / "stamps" / (source.hex() + ".stamp");
}

}  // namespace

std::optional<WeightCacheStamp> read_weight_cache_stamp(const std::string& dir, const Digest128& source) {
  StampFile s{};
  std::ifstream in(stamp_path(dir, source), std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(&s), sizeof s) || in.peek() != std::char_traits<char>::eof()) return std::nullopt;
  if (s.magic != kMagic || s.version != kStampVersion || s.bytes != sizeof s || s.digest != digest_of(s))
    return std::nullopt;
  return WeightCacheStamp{.key = {s.key_low, s.key_high},
                          .checked = {s.device, s.inode, s.size, s.modified_ns, s.changed_ns}};
}

void write_weight_cache_stamp(const std::string& dir, const Digest128& source, const WeightCacheStamp& stamp) {
  StampFile s{};
  s.magic = kMagic, s.version = kStampVersion, s.bytes = sizeof s;
  s.key_low = stamp.key.low, s.key_high = stamp.key.high;
  s.device = stamp.checked.device, s.inode = stamp.checked.inode, s.size = stamp.checked.size;
  s.modified_ns = stamp.checked.modified_ns, s.changed_ns = stamp.checked.changed_ns;
  s.digest = digest_of(s);
  try {
    const fs::path path = stamp_path(dir, source);
    fs::create_directories(path.parent_path());
    io::write_file_atomic(path.string(), std::string(reinterpret_cast<const char*>(&s), sizeof s));
  } catch (const std::exception&) {
    // a stamp is a shortcut: without it the next open hashes and checks in full
  }
}

}  // namespace ditmk::cpu
