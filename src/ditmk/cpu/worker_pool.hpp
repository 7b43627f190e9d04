#pragma once
// The persistent worker pool of the CPU megakernel. Threads are created once per engine; a denoise
// is ONE dispatch: every thread runs the whole program (4 steps x all blocks) and meets the others
// at barriers between dependent ops, never returning to the caller in between. Nothing here
// allocates after construction.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace ditmk::cpu {

class WorkerPool {
 public:
  explicit WorkerPool(int threads);  // the caller is thread 0; threads-1 workers are started
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return threads_; }

  // Runs program(thread_index) on every thread and returns when all have finished. An exception
  // thrown by any thread is rethrown here (the first one) after all have stopped.
  template <typename Program>
  void run(Program& program) {
    dispatch([](void* p, int t) { (*static_cast<Program*>(p))(t); }, &program);
  }

  // Called by every thread of a running program: returns when all threads have arrived. Spins
  // briefly (phases are microseconds apart), then yields so an oversubscribed machine still progresses.
  void barrier();

  // Called by every thread of a running program, for each shared loop in the same order: runs
  // body(begin, end) on chunks of [0, n) until the threads together have run all of it. Chunks are
  // whole granules of `granule` items (the last one may be short). Each thread owns an equal share
  // of the granules and walks it from the front in chunks of a quarter of what it has left, so its
  // chunks follow one another in memory and what it prefetches past a chunk is its own next chunk;
  // a thread done with its share then takes chunks from the front of the others' (a slowed core,
  // from another tenant or an interrupt, gets help instead of holding the others at the next
  // barrier). Which thread runs which chunk varies from run to run; callers whose chunks are
  // independent (each writes only its own outputs) get the same results either way.
  //
  // The loops of a program draw consecutive ranges of one ticket space (a ticket is a granule):
  // loop g owns tickets [base_g, base_g + granules_g), every thread advances its own base by
  // granules_g, and each share has a counter of the next ticket to hand out that only grows. A claim
  // reads a counter below its share's first ticket as that first ticket (the share's earlier loops
  // are all handed out: a thread leaves a loop only when every share of it is), and a counter past
  // its share's end as nothing left, so no thread takes a ticket of another loop.
  template <typename Body>
  void for_chunks(int thread, int64_t n, int64_t granule, Body&& body) {
    const int64_t g = granule < 1 ? 1 : granule;
    const int64_t granules = (n + g - 1) / g;
    int64_t& base = bases_[std::size_t(thread)].value;
    const int64_t begin = base;
    base += granules;
    const int64_t threads = threads_;
    for (int64_t k = 0; k < threads; ++k) {
      const int64_t owner = (thread + k) % threads;
      const int64_t first = begin + granules * owner / threads, end = begin + granules * (owner + 1) / threads;
      std::atomic<int64_t>& next = shares_[std::size_t(owner)].next;
      int64_t seen = next.load(std::memory_order_relaxed);
      for (;;) {
        const int64_t from = std::max(seen, first);
        if (from >= end) break;
        const int64_t stop = from + std::max<int64_t>((end - from) / 4, 1);
        if (next.compare_exchange_weak(seen, stop, std::memory_order_relaxed)) {
          body((from - begin) * g, std::min(n, (stop - begin) * g));
          seen = next.load(std::memory_order_relaxed);
        }
      }
    }
  }

 private:
  using Entry = void (*)(void*, int);
  void dispatch(Entry entry, void* program);
  void worker_loop(int index);
  void execute(int index);

  int threads_;
  std::vector<std::thread> workers_;
  Entry entry_ = nullptr;
  void* program_ = nullptr;
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> running_{0};
  std::atomic<bool> stopping_{false};
  // barrier state: arrivals count up; the last arrival flips the phase
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<uint32_t> phase_{0};
  // for_chunks: each thread's base in the ticket space and each share's next ticket (a cache line each)
  struct alignas(64) Base {
    int64_t value = 0;
  };
  struct alignas(64) Share {
    std::atomic<int64_t> next{0};
  };
  std::vector<Base> bases_;
  std::vector<Share> shares_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

}  // namespace ditmk::cpu
