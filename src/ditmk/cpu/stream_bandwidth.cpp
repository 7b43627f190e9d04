#include "ditmk/cpu/stream_bandwidth.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ditmk::cpu {

namespace {

// Eight independent sums keep enough loads in flight to saturate memory, and the result is
// consumed so the compiler cannot drop the sweep.
__attribute__((target_clones("avx512f", "avx2", "default"))) uint64_t sweep(const uint64_t* p, std::size_t n) {
  uint64_t s[8] = {};
  for (std::size_t i = 0; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) s[j] += p[i + j];
  uint64_t total = 0;
  for (uint64_t v : s) total += v;
  return total;
}

}  // namespace

std::size_t default_stream_buffer_bytes() {
  long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc <= 0) llc = 32l << 20;
  return std::max<std::size_t>(std::size_t(llc) * 4, 512ull << 20);
}

StreamBandwidth measure_stream_bandwidth(WorkerPool& pool, std::size_t buffer_bytes, int passes) {
  const std::size_t words = buffer_bytes / sizeof(uint64_t);
  std::vector<uint64_t> buffer(words);
  const int threads = pool.size();
  // first touch by the thread that will read each share, as the engine's packed weights are
  auto touch = [&](int t) {
    const std::size_t b = words * t / threads, e = words * (t + 1) / threads;
    for (std::size_t i = b; i < e; ++i) buffer[i] = i;
  };
  pool.run(touch);
  std::vector<uint64_t> sink(threads);
  double best = 0;
  for (int pass = 0; pass < passes; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    auto read = [&](int t) {
      const std::size_t b = words * t / threads, e = words * (t + 1) / threads;
      sink[t] += sweep(buffer.data() + b, e - b);
    };
    pool.run(read);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, double(words * sizeof(uint64_t)) / seconds);
  }
  uint64_t all = 0;
  for (uint64_t s : sink) all += s;
  asm volatile("" : : "r"(all));
  return {best, words * sizeof(uint64_t), passes};
}

}  // namespace ditmk::cpu
