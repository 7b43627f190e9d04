#include "ditmk/core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace ditmk {

bool is_terminal(std::FILE* stream) { return isatty(fileno(stream)) != 0; }

Progress::Progress(std::string label, uint64_t total_bytes)
    : label_(std::move(label)), total_(total_bytes), shown_(total_bytes > 0 && is_terminal(stderr)) {}

Progress::~Progress() { finish(); }

void Progress::advance(uint64_t bytes) {
  done_ += bytes;
  draw();
}

void Progress::draw() {
  if (!shown_) return;
  const double fraction = double(done_) / double(total_);
  const int percent = int(fraction * 100.0);
  if (percent == last_percent_) return;  // a redraw per percent, not per write
  last_percent_ = percent;
  fmt::print(stderr, "\r{}: {:3d}% ({:.0f} / {:.0f} MB)", label_, percent, double(done_) / 1e6, double(total_) / 1e6);
  std::fflush(stderr);
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (shown_ && last_percent_ >= 0) fmt::print(stderr, "\n");
}

}  // namespace ditmk
