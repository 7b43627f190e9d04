#include "ditmk/core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace ditmk {

Progress::Progress(std::string label, uint64_t total_bytes)
    : label_(std::move(label)), total_(total_bytes), tty_(isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() { finish(); }

void Progress::advance(uint64_t bytes) {
  done_ += bytes;
  draw();
}

void Progress::draw() {
  const double fraction = total_ ? double(done_) / double(total_) : 1.0;
  const int tenth = int(fraction * 10.0);
  if (!tty_ && tenth == last_tenth_) return;
  last_tenth_ = tenth;
  fmt::print(stderr, "{}{}: {:5.1f}% ({:.0f} / {:.0f} MB){}", tty_ ? "\r" : "", label_, 100.0 * fraction,
             double(done_) / 1e6, double(total_) / 1e6, tty_ ? "" : "\n");
  std::fflush(stderr);
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (tty_) fmt::print(stderr, "\n");
}

}  // namespace ditmk
