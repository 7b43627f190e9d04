#pragma once
// This machine's streaming read bandwidth, measured the way the engine reads weights: every thread
// of the pool sweeps its share of a buffer several times larger than the last-level cache, once
// per pass, and the best pass counts (the least disturbed by other tenants of a shared machine).
#include <cstddef>

#include "ditmk/cpu/worker_pool.hpp"

namespace ditmk::cpu {

struct StreamBandwidth {
  double bytes_per_second = 0;
  std::size_t buffer_bytes = 0;
  int passes = 0;
};

StreamBandwidth measure_stream_bandwidth(WorkerPool& pool, std::size_t buffer_bytes, int passes);
// A buffer comfortably larger than the last-level cache (4x, at least 512 MiB).
std::size_t default_stream_buffer_bytes();

}  // namespace ditmk::cpu
