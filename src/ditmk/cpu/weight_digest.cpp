#include "ditmk/cpu/weight_digest.hpp"

#include <xxhash.h>

#include <fmt/format.h>

#include "ditmk/core/parallel.hpp"

namespace ditmk::cpu {

namespace {

// Big enough that a chunk's hashing dwarfs the thread hand-off, small enough that two threads get
// even shares of a 1 GB release.
constexpr std::size_t kChunkBytes = std::size_t(8) << 20;

struct Chunk {
  const std::byte* data;
  std::size_t size;
};

}  // namespace

std::string Digest128::hex() const { return fmt::format("{:016x}{:016x}", high, low); }

uint64_t digest64(ByteRun run) { return XXH3_64bits(run.data(), run.size()); }

Digest128 digest_runs(const std::vector<ByteRun>& runs, int threads) {
  std::vector<Chunk> chunks;
  std::vector<uint64_t> run_sizes;  // folded into the final digest, so the runs' boundaries count
  for (const ByteRun& run : runs) {
    for (std::size_t offset = 0; offset < run.size(); offset += kChunkBytes)
      chunks.push_back({run.data() + offset, std::min(kChunkBytes, run.size() - offset)});
    run_sizes.push_back(run.size());
  }
  std::vector<XXH128_hash_t> digests(chunks.size());
  parallel_ranges(int(chunks.size()), threads, [&](int c0, int c1) {
    for (int c = c0; c < c1; ++c) digests[std::size_t(c)] = XXH3_128bits(chunks[std::size_t(c)].data, chunks[std::size_t(c)].size);
  });
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  XXH3_128bits_update(state, run_sizes.data(), run_sizes.size() * sizeof(uint64_t));
  XXH3_128bits_update(state, digests.data(), digests.size() * sizeof(XXH128_hash_t));
  const XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  return {h.low64, h.high64};
}

}  // namespace ditmk::cpu
