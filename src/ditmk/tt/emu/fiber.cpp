#include "ditmk/tt/emu/fiber.hpp"

#include "ditmk/core/error.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define DITMK_ASAN_FIBERS 1
#endif

namespace ditmk::tt::emu {

namespace {
thread_local Fiber* running_fiber = nullptr;
}

Fiber::Fiber(std::function<void()> body, std::size_t stack_bytes)
    : body_(std::move(body)), stack_(new std::byte[stack_bytes]), stack_bytes_(stack_bytes) {}

void Fiber::entry() {
  Fiber* self = running_fiber;
#ifdef DITMK_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(nullptr, &self->caller_stack_bottom_, &self->caller_stack_size_);
#endif
  self->body_();
  self->finished_ = true;
  running_fiber = nullptr;
#ifdef DITMK_ASAN_FIBERS
  __sanitizer_start_switch_fiber(nullptr, self->caller_stack_bottom_, self->caller_stack_size_);
#endif
  // uc_link returns to the scheduler's context
}

void Fiber::resume() {
  require(!finished_ && running_fiber == nullptr, "fiber resumed while finished or nested");
  if (!started_) {
    started_ = true;
    require(getcontext(&context_) == 0, "getcontext failed");
    context_.uc_stack.ss_sp = stack_.get();
    context_.uc_stack.ss_size = stack_bytes_;
    context_.uc_link = &caller_;
    makecontext(&context_, &Fiber::entry, 0);
  }
  running_fiber = this;
#ifdef DITMK_ASAN_FIBERS
  __sanitizer_start_switch_fiber(&caller_fake_stack_, stack_.get(), stack_bytes_);
#endif
  swapcontext(&caller_, &context_);
#ifdef DITMK_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(caller_fake_stack_, nullptr, nullptr);
#endif
  running_fiber = nullptr;
}

void Fiber::abandon() {
  finished_ = true;
  running_fiber = nullptr;
}

void Fiber::yield() {
  Fiber* self = running_fiber;
  require(self != nullptr, "Fiber::yield called outside a fiber");
  running_fiber = nullptr;
#ifdef DITMK_ASAN_FIBERS
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, self->caller_stack_bottom_, self->caller_stack_size_);
#endif
  swapcontext(&self->context_, &self->caller_);
#ifdef DITMK_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake_stack, &self->caller_stack_bottom_, &self->caller_stack_size_);
#endif
  running_fiber = self;
}

}  // namespace ditmk::tt::emu
