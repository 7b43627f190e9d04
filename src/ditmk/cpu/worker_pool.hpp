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
  // body(begin, end) on chunks of [0, n) as this thread comes free, until the other threads and
  // this one have taken all of it. A thread slowed by its core (another tenant, an interrupt) takes
  // fewer chunks instead of holding the others at the next barrier. Chunks start at a share of what
  // is left, (n - taken) / (2 * threads), and shrink to min_chunk, so a loop is a few chunks per
  // thread. Which thread runs which chunk varies from run to run; callers whose chunks are
  // independent (each writes only its own outputs) get the same results either way.
  //
  // The loops of a program draw consecutive ranges of one counter: loop g owns tickets
  // [base_g, base_g + n_g), every thread advances its own base by n_g, and a thread leaves loop g
  // only once the counter reaches its end, so no thread can take a ticket of the next loop early.
  template <typename Body>
  void for_chunks(int thread, int64_t n, int64_t min_chunk, Body&& body) {
    int64_t& base = bases_[std::size_t(thread)].value;
    const int64_t begin = base, end = base + n;
    base = end;
    const int64_t floor = min_chunk < 1 ? 1 : min_chunk;
    int64_t taken = ticket_.load(std::memory_order_relaxed);
    while (taken < end) {
      const int64_t guided = (end - taken) / (2 * int64_t(threads_));
      const int64_t stop = taken + std::min(end - taken, std::max(guided, floor));
      if (ticket_.compare_exchange_weak(taken, stop, std::memory_order_relaxed)) {
        body(taken - begin, stop - begin);
        taken = ticket_.load(std::memory_order_relaxed);
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
  // for_chunks: the shared ticket counter and each thread's base (own cache line each)
  alignas(64) std::atomic<int64_t> ticket_{0};
  struct alignas(64) Base {
    int64_t value = 0;
  };
  std::vector<Base> bases_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

}  // namespace ditmk::cpu
