#pragma once
// A cooperative fiber on its own stack (ucontext): each emulated processor is one, and a single
// scheduler thread switches between them. A fiber runs until it blocks (yield) or its body returns;
// the body must not let an exception escape.
#include <cstddef>
#include <functional>
#include <memory>
#include <ucontext.h>

namespace ditmk::tt::emu {

class Fiber {
 public:
  Fiber(std::function<void()> body, std::size_t stack_bytes);
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Runs the fiber from where it stopped until it yields or finishes (scheduler side).
  void resume();
  // Returns control to the scheduler (fiber side).
  static void yield();
  // Gives up a fiber whose code was left by a jump out of a signal handler (kernel_guard.cpp): it
  // counts as finished and is never resumed; what its frames own is not destroyed.
  void abandon();
  bool finished() const { return finished_; }
  bool started() const { return started_; }

 private:
  static void entry();
  std::function<void()> body_;
  std::unique_ptr<std::byte[]> stack_;
  std::size_t stack_bytes_;
  ucontext_t context_{};
  ucontext_t caller_{};
  bool started_ = false;
  bool finished_ = false;
  // AddressSanitizer needs to be told about stack switches (fake-stack handles of both sides).
  void* caller_fake_stack_ = nullptr;
  const void* caller_stack_bottom_ = nullptr;
  std::size_t caller_stack_size_ = 0;
};

}  // namespace ditmk::tt::emu
