#pragma once
// 128-bit XXH3 digests of large byte runs, split over threads: a run is cut into fixed 8 MiB chunks
// whose digests are combined in order, so the result does not depend on the thread count.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ditmk::cpu {

struct Digest128 {
  uint64_t low = 0, high = 0;
  bool operator==(const Digest128&) const = default;
  std::string hex() const;  // 32 hex digits, high half first
};

using ByteRun = std::span<const std::byte>;

// The digest of the runs in order (each run's length counts, so [ab][c] and [a][bc] differ).
Digest128 digest_runs(const std::vector<ByteRun>& runs, int threads);

// XXH3-64 of one run, on the calling thread.
uint64_t digest64(ByteRun run);

}  // namespace ditmk::cpu
