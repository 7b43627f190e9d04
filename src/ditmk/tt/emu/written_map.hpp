#pragma once
// One bit per byte of emulated memory: set when the byte is written, so a read of bytes nobody
// wrote is caught instead of returning stale or zero data.
#include <cstdint>
#include <vector>

namespace ditmk::tt::emu {

class WrittenMap {
 public:
  explicit WrittenMap(uint64_t bytes = 0) { resize(bytes); }
  void resize(uint64_t bytes) { words_.assign((bytes + 63) / 64, 0); }
  // Extends the map to `bytes`, keeping what is marked; new bytes are unwritten.
  void grow(uint64_t bytes) { words_.resize((bytes + 63) / 64, 0); }
  void mark(uint64_t begin, uint64_t size);
  void clear(uint64_t begin, uint64_t size);
  // Offset of the first unwritten byte of [begin, begin+size), or begin+size when all are written.
  uint64_t first_unwritten(uint64_t begin, uint64_t size) const;

 private:
  void set_range(uint64_t begin, uint64_t size, bool value);
  std::vector<uint64_t> words_;
};

}  // namespace ditmk::tt::emu
