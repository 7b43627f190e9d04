#pragma once
// A plain fork-join split of [0, n) over a few std::threads, for code off the hot path (the
// float64 reference, checkpoint generation). The fast executor has its own persistent pool.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace ditmk {

inline int hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// An exception thrown by fn on any thread (a bad weight found while packing) is rethrown here, the
// first one by range, after every thread has finished.
template <typename Fn>
void parallel_ranges(int n, int threads, Fn&& fn) {
  threads = std::max(1, std::min(threads, n));
  if (threads == 1) {
    fn(0, n);
    return;
  }
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  const auto run = [&](int t) {
    try {
      fn(int(int64_t(n) * t / threads), int(int64_t(n) * (t + 1) / threads));
    } catch (...) {
      errors[std::size_t(t)] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back(run, t);
  run(0);
  for (auto& w : workers) w.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace ditmk
