#pragma once
// A read-only memory map of a whole file: checkpoints are gigabytes and are read in place.
#include <cstddef>
#include <cstdint>
#include <string>

namespace ditmk::io {

// Which file, in which state: device and inode say which file, size and the modification and
// status-change times (ns) that it has not been written since. Writing a file or setting its times
// moves its change time, which no user can set back, so an equal identity means unchanged bytes
// short of media faults.
struct FileIdentity {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t modified_ns = 0, changed_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};
// The identity of an open file descriptor (fstat); false when it cannot be read.
bool identity_of(int fd, FileIdentity& identity);

class MappedFile {
 public:
  explicit MappedFile(const std::string& path);  // throws Error naming the path
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // The file as it was when mapped (from the descriptor that was mapped, not the path again).
  const FileIdentity& identity() const { return identity_; }
  // Asks the kernel to read the whole file ahead (MADV_WILLNEED), without waiting: for a file
  // whose every page is about to be used.
  void read_ahead() const;

 private:
  std::string path_;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  FileIdentity identity_;
};

}  // namespace ditmk::io
