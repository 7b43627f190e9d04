#pragma once
// A plain fork-join split of [0, n) over a few std::threads, for code off the hot path (the
// float64 reference, checkpoint generation). The fast executor has its own persistent pool.
#include <algorithm>
#include <thread>
#include <vector>

namespace ditmk {

inline int hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

template <typename Fn>
void parallel_ranges(int n, int threads, Fn&& fn) {
  threads = std::max(1, std::min(threads, n));
  if (threads == 1) {
    fn(0, n);
    return;
  }
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t)
    workers.emplace_back([&, t] { fn(int(int64_t(n) * t / threads), int(int64_t(n) * (t + 1) / threads)); });
  fn(0, int(int64_t(n) / threads));
  for (auto& w : workers) w.join();
}

}  // namespace ditmk
