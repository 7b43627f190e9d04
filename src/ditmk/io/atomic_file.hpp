#pragma once
// Output files appear whole or not at all: bytes go to a temporary file beside the target, which is
// renamed over it only by commit(). A failure anywhere leaves no partial output behind.
#include <cstdio>
#include <string>

namespace ditmk::io {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t size);
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_, temp_path_;
  std::FILE* file_ = nullptr;
};

// Writes a whole small file atomically.
void write_file_atomic(const std::string& path, const std::string& contents);
std::string read_text_file(const std::string& path);

}  // namespace ditmk::io
