// WorkerPool::for_chunks: the shared loops the engine's GEMMs hand out as panel chunks.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "ditmk/cpu/worker_pool.hpp"

namespace ditmk::cpu {
namespace {

// Many loops back to back, with no barrier between them: every item of every loop runs exactly
// once, in chunks of whole granules, whatever the thread count, loop size or granule.
TEST(WorkerPoolChunks, EveryItemOfEveryLoopRunsOnce) {
  const std::vector<int64_t> sizes = {0, 1, 2, 7, 48, 192, 3, 0, 1000, 5};
  for (int threads : {1, 2, 3, 5}) {
    for (int64_t granule : {1, 4}) {
      WorkerPool pool(threads);
      std::vector<std::vector<std::atomic<int>>> runs;
      for (int64_t n : sizes) runs.emplace_back(std::size_t(n));
      auto program = [&](int t) {
        for (std::size_t loop = 0; loop < sizes.size(); ++loop) {
          pool.for_chunks(t, sizes[loop], granule, [&](int64_t begin, int64_t end) {
            ASSERT_LE(0, begin);
            ASSERT_LT(begin, end);
            ASSERT_LE(end, sizes[loop]);
            ASSERT_EQ(begin % granule, 0);
            ASSERT_TRUE(end % granule == 0 || end == sizes[loop]);
            for (int64_t i = begin; i < end; ++i) runs[loop][std::size_t(i)].fetch_add(1);
          });
        }
      };
      for (int call = 0; call < 3; ++call) pool.run(program);  // the counters start over each call
      for (std::size_t loop = 0; loop < sizes.size(); ++loop)
        for (int64_t i = 0; i < sizes[loop]; ++i)
          EXPECT_EQ(runs[loop][std::size_t(i)].load(), 3) << threads << " threads, loop " << loop << ", item " << i;
    }
  }
}

// A thread held up inside its first chunk does not hold up the loop: the other threads take every
// other chunk (a static split would leave its share undone, and this test would time out).
TEST(WorkerPoolChunks, AStalledThreadLeavesTheRestToTheOthers) {
  constexpr int64_t kItems = 64;
  WorkerPool pool(3);
  std::atomic<int64_t> done{0};
  std::atomic<bool> stalled{false}, drained{false};
  auto program = [&](int t) {
    pool.for_chunks(t, kItems, 1, [&](int64_t begin, int64_t end) {
      if (!stalled.exchange(true)) {
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (done.load() < kItems - (end - begin) && std::chrono::steady_clock::now() < give_up)
          std::this_thread::yield();
        drained = done.load() == kItems - (end - begin);
      }
      done.fetch_add(end - begin);
    });
  };
  pool.run(program);
  EXPECT_TRUE(drained.load());
  EXPECT_EQ(done.load(), kItems);
}

}  // namespace
}  // namespace ditmk::cpu
