#pragma once
// A progress line on stderr for long jobs (writing gigabyte checkpoints), redrawn in place, and only
// on a terminal: written to a file or a pipe, a command prints its errors and at most one summary
// line, nothing that a log or a script would have to filter.
#include <cstdint>
#include <cstdio>
#include <string>

namespace ditmk {

// Whether `stream` (stdout or stderr) is a terminal: where progress and previews are shown.
bool is_terminal(std::FILE* stream);

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
  int last_percent_ = -1;
  bool shown_, finished_ = false;
};

}  // namespace ditmk
