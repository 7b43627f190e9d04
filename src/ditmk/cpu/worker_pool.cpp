#include "ditmk/cpu/worker_pool.hpp"

#include <emmintrin.h>

#include <exception>

namespace ditmk::cpu {

WorkerPool::WorkerPool(int threads)
    : threads_(threads < 1 ? 1 : threads), bases_(std::size_t(threads_)), shares_(std::size_t(threads_)) {
  for (int i = 1; i < threads_; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

WorkerPool::~WorkerPool() {
  stopping_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (auto& w : workers_) w.join();
}

void WorkerPool::execute(int index) {
  try {
    entry_(program_, index);
  } catch (...) {
    if (!failed_.exchange(true)) error_ = std::current_exception();
  }
}

void WorkerPool::worker_loop(int index) {
  uint64_t seen = 0;
  for (;;) {
    generation_.wait(seen);  // sleeps between denoise calls
    seen = generation_.load();
    if (stopping_.load()) return;
    execute(index);
    running_.fetch_sub(1);
    running_.notify_all();
  }
}

void WorkerPool::dispatch(Entry entry, void* program) {
  entry_ = entry;
  program_ = program;
  failed_.store(false);
  error_ = nullptr;
  arrived_.store(0);
  for (Base& b : bases_) b.value = 0;
  for (Share& s : shares_) s.next.store(0);
  running_.store(threads_ - 1);
  generation_.fetch_add(1);
  generation_.notify_all();
  execute(0);
  for (int left = running_.load(); left != 0; left = running_.load()) running_.wait(left);
  if (failed_.load()) std::rethrow_exception(error_);
}

void WorkerPool::barrier() {
  // After a thread failed, barriers stop synchronising so every thread runs to the end of the
  // program and the error surfaces from run() instead of a hang.
  if (threads_ == 1 || failed_.load(std::memory_order_relaxed)) return;
  const uint32_t phase = phase_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) == threads_ - 1) {
    arrived_.store(0, std::memory_order_relaxed);
    phase_.store(phase + 1, std::memory_order_release);
    phase_.notify_all();
    return;
  }
  for (int spin = 0; spin < 4000; ++spin) {
    if (phase_.load(std::memory_order_acquire) != phase || failed_.load(std::memory_order_relaxed)) return;
    _mm_pause();
  }
  while (phase_.load(std::memory_order_acquire) == phase && !failed_.load(std::memory_order_relaxed))
    std::this_thread::yield();
}

}  // namespace ditmk::cpu
