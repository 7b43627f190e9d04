#include "ditmk/cpu/weight_cache_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstddef>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include "ditmk/core/parallel.hpp"
#include "ditmk/io/mapped_file.hpp"

namespace ditmk::cpu {

namespace {

constexpr std::array<char, 8> kMagic = {'D', 'I', 'T', 'M', 'K', 'P', 'W', '\n'};
constexpr uint64_t kPayloadStart = 4096;  // the header's page; entries start page-aligned
constexpr uint64_t kEntryAlign = 64;
constexpr uint32_t kMatrix = 1, kTable = 2;
constexpr std::size_t kNameBytes = 64;

struct Header {
  std::array<char, 8> magic;
  uint32_t version;
  uint32_t header_bytes;
  uint64_t key_low, key_high;
  uint64_t entries;
  uint64_t index_offset, index_bytes;
  uint64_t file_bytes;
  uint64_t index_digest;
  uint64_t header_digest;  // of every byte above
};
static_assert(sizeof(Header) == 80);

uint64_t header_digest(const Header& h) {
  return digest64({reinterpret_cast<const std::byte*>(&h), offsetof(Header, header_digest)});
}

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

struct WeightCacheRecord {
  uint32_t kind, format;
  std::array<char, kNameBytes> name;  // NUL-padded
  int64_t n, k;
  uint64_t offset, bytes, digest;
};
static_assert(sizeof(WeightCacheRecord) == 8 + kNameBytes + 40);
using Record = WeightCacheRecord;

WeightCacheWriter::WeightCacheWriter(std::string path, const Digest128& key) : path_(std::move(path)), key_(key) {
  // A name no other writer uses, so two processes packing the same release never share a temporary.
  std::random_device random;
  temp_path_ = path_ + fmt::format(".tmp.{}.{:08x}", ::getpid(), random());
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) stop(fmt::format("{}: cannot create: {}", temp_path_, std::strerror(errno)));
  end_ = kPayloadStart;
}

WeightCacheWriter::~WeightCacheWriter() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_path_.c_str());
  }
}

void WeightCacheWriter::stop(const std::string& why) {
  if (error_.empty()) error_ = why;
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_path_.c_str());
    fd_ = -1;
  }
}

void WeightCacheWriter::write_at(uint64_t offset, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (fd_ >= 0 && bytes > 0) {
    const ssize_t done = ::pwrite(fd_, p, bytes, off_t(offset));
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return stop(fmt::format("{}: write failed: {}", temp_path_, std::strerror(errno)));
    p += done, offset += uint64_t(done), bytes -= std::size_t(done);
  }
}

void WeightCacheWriter::add(uint32_t kind, uint32_t format, std::string_view name, int64_t n, int64_t k,
                            const void* data, std::size_t bytes) {
  if (fd_ < 0) return;
  Record r{};
  r.kind = kind, r.format = format, r.n = n, r.k = k;
  std::memcpy(r.name.data(), name.data(), std::min(name.size(), kNameBytes - 1));
  r.offset = align_up(end_, kEntryAlign), r.bytes = bytes;
  r.digest = digest64({static_cast<const std::byte*>(data), bytes});
  write_at(r.offset, data, bytes);
  end_ = r.offset + bytes;
  records_.push_back(r);
}

void WeightCacheWriter::matrix(std::string_view name, const PackedWeights& w) {
  add(kMatrix, uint32_t(w.format()), name, w.n(), w.k(), w.data(), w.bytes());
}

void WeightCacheWriter::table(std::string_view name, const std::vector<float>& values) {
  add(kTable, 0, name, int64_t(values.size()), 1, values.data(), values.size() * sizeof(float));
}

bool WeightCacheWriter::commit() {
  if (fd_ < 0) return false;
  Header h{};
  h.magic = kMagic, h.version = kWeightCacheFileVersion, h.header_bytes = sizeof(Header);
  h.key_low = key_.low, h.key_high = key_.high, h.entries = records_.size();
  h.index_offset = align_up(end_, kEntryAlign), h.index_bytes = records_.size() * sizeof(Record);
  h.file_bytes = h.index_offset + h.index_bytes;
  h.index_digest = digest64({reinterpret_cast<const std::byte*>(records_.data()), h.index_bytes});
  h.header_digest = header_digest(h);
  write_at(h.index_offset, records_.data(), h.index_bytes);
  write_at(0, &h, sizeof h);
  // The bytes reach the disk before the name does: a crash leaves the old state or the whole file.
  if (fd_ >= 0 && ::fsync(fd_) != 0) stop(fmt::format("{}: fsync failed: {}", temp_path_, std::strerror(errno)));
  if (fd_ < 0) return false;
  ::close(fd_);
  fd_ = -1;
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    error_ = fmt::format("{}: cannot rename into place: {}", path_, std::strerror(errno));
    ::unlink(temp_path_.c_str());
    return false;
  }
  return true;
}

std::unique_ptr<WeightCacheReader> WeightCacheReader::open(const std::string& path, const Digest128& key, int threads,
                                                           std::string& why, const io::FileIdentity* checked) {
  std::shared_ptr<const io::MappedFile> file;
  try {
    file = std::make_shared<const io::MappedFile>(path);
  } catch (const Error& e) {
    why = e.what();
    return nullptr;
  }
  const auto bad = [&](const std::string& what) {
    why = fmt::format("{}: {}", path, what);
    return nullptr;
  };
  const std::size_t size = file->size();
  Header h{};
  if (size < kPayloadStart) return bad(fmt::format("truncated ({} bytes, shorter than its header)", size));
  std::memcpy(&h, file->data(), sizeof h);
  if (h.magic != kMagic) return bad("not a ditmk weight cache file");
  if (h.version != kWeightCacheFileVersion || h.header_bytes != sizeof(Header))
    return bad(fmt::format("file version {} (this ditmk reads {})", h.version, kWeightCacheFileVersion));
  if (h.header_digest != header_digest(h)) return bad("header checksum mismatch");
  if (h.key_low != key.low || h.key_high != key.high) return bad("made for another release, format or packing");
  if (h.file_bytes != size) return bad(fmt::format("{} bytes, its header says {} (truncated?)", size, h.file_bytes));
  if (h.index_offset < kPayloadStart || h.index_offset > size || h.index_bytes != h.entries * sizeof(Record) ||
      h.index_bytes > size - h.index_offset)
    return bad("index outside the file");
  const std::byte* index = file->data() + h.index_offset;
  if (digest64({index, h.index_bytes}) != h.index_digest) return bad("index checksum mismatch");
  std::unique_ptr<WeightCacheReader> reader(new WeightCacheReader);
  reader->records_.resize(h.entries);
  std::memcpy(reader->records_.data(), index, h.index_bytes);
  for (const Record& r : reader->records_) {
    if (r.offset < kPayloadStart || r.offset % kEntryAlign != 0 || r.offset > h.index_offset ||
        r.bytes > h.index_offset - r.offset || r.name.back() != '\0')
      return bad("an entry lies outside the payload");
    if (r.kind == kMatrix &&
        (r.n <= 0 || r.k <= 0 || r.format > uint32_t(WeightFormat::int8) ||
         r.bytes != PackedWeights::bytes_for(WeightFormat(r.format), r.n, r.k)))
      return bad(fmt::format("entry {}: size does not match its shape", r.name.data()));
    if (r.kind == kTable && r.bytes != uint64_t(r.n) * sizeof(float))
      return bad(fmt::format("entry {}: size does not match its length", r.name.data()));
    if (r.kind != kMatrix && r.kind != kTable) return bad("an entry of unknown kind");
  }
  reader->entries_checked_ = checked == nullptr || checked->inode == 0 || !(*checked == file->identity());
  if (!reader->entries_checked_) {
    file->read_ahead();  // the first call uses every page; a disk read starts now, not at its faults
    reader->file_ = std::move(file);
    return reader;
  }
  // Every entry's digest, the threads taking entries in turn (a flipped bit means a re-pack).
  std::atomic<bool> intact = true;
  parallel_ranges(int(reader->records_.size()), threads, [&](int e0, int e1) {
    for (int e = e0; e < e1 && intact; ++e) {
      const Record& r = reader->records_[std::size_t(e)];
      if (digest64({file->data() + r.offset, r.bytes}) != r.digest) intact = false;
    }
  });
  if (!intact) return bad("an entry's checksum does not match (corrupt)");
  reader->file_ = std::move(file);
  return reader;
}

WeightCacheReader::~WeightCacheReader() = default;

const WeightCacheRecord& WeightCacheReader::next(uint32_t kind, std::string_view name) {
  if (next_ >= records_.size())
    throw WeightCacheMismatch(fmt::format("{}: ends before {}", file_->path(), name));
  const Record& r = records_[next_++];
  const std::string_view stored(r.name.data());
  if (r.kind != kind || stored != name.substr(0, kNameBytes - 1))
    throw WeightCacheMismatch(fmt::format("{}: holds {} where {} was expected", file_->path(), stored, name));
  return r;
}

PackedWeights WeightCacheReader::matrix(std::string_view name, WeightFormat format, int64_t n, int64_t k) {
  const Record& r = next(kMatrix, name);
  if (r.format != uint32_t(format) || r.n != n || r.k != k)
    throw WeightCacheMismatch(fmt::format("{}: {} is [{}, {}] {}, expected [{}, {}] {}", file_->path(), name, r.n, r.k,
                                          weight_format_name(WeightFormat(r.format)), n, k, weight_format_name(format)));
  return PackedWeights::view(format, n, k, file_->data() + r.offset, file_);
}

std::vector<float> WeightCacheReader::table(std::string_view name, std::size_t count) {
  const Record& r = next(kTable, name);
  if (uint64_t(r.n) != count)
    throw WeightCacheMismatch(fmt::format("{}: table {} has {} values, expected {}", file_->path(), name, r.n, count));
  std::vector<float> values(count);
  std::memcpy(values.data(), file_->data() + r.offset, count * sizeof(float));
  return values;
}

void WeightCacheReader::finish() const {
  if (next_ != records_.size())
    throw WeightCacheMismatch(fmt::format("{}: {} entries left unused", file_->path(), records_.size() - next_));
}

std::size_t WeightCacheReader::bytes() const { return file_->size(); }

const io::FileIdentity& WeightCacheReader::identity() const { return file_->identity(); }

}  // namespace ditmk::cpu
