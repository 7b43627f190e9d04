#pragma once
// A progress line on stderr for long jobs (writing gigabyte checkpoints): redrawn in place on a
// terminal, a line per tenth otherwise so logs stay short.
#include <cstdint>
#include <string>

namespace ditmk {

class Progress {
 public:
  Progress(std::string label, uint64_t total_bytes);
  ~Progress();
  void advance(uint64_t bytes);
  void finish();

 private:
  void draw();
  std::string label_;
  uint64_t total_, done_ = 0;
  int last_tenth_ = -1;
  bool tty_, finished_ = false;
};

}  // namespace ditmk
