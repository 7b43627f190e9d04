#pragma once
// The persistent worker pool of the CPU megakernel. Threads are created once per engine; a denoise
// is ONE dispatch: every thread runs the whole program (4 steps x all blocks) and meets the others
// at barriers between dependent ops, never returning to the caller in between. Nothing here
// allocates after construction.
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
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

}  // namespace ditmk::cpu
