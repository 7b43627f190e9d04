#include "ditmk/tt/emu/kernel_guard.hpp"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <mutex>
#include <vector>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/emu/fiber.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define DITMK_GUARD_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DITMK_GUARD_OFF 1
#endif
#endif

namespace ditmk::tt::emu {

namespace {

// The signals kernel code can raise by itself, and the watchdog's (a real-time one, so it never
// collides with what a host program uses SIGALRM or SIGVTALRM for).
constexpr std::array kFaultSignals = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
int watchdog_signal() { return SIGRTMIN + 4; }

// One guarded run on one thread: where to jump back to, what is running, what stopped it.
struct GuardFrame {
  sigjmp_buf back;
  KernelActivity* activity = nullptr;
  double limit_seconds = 0;
  uint64_t seen_calls = 0;
  timespec seen_at{};
  KernelStop stop;
};

thread_local GuardFrame* frame = nullptr;
thread_local KernelActivity* activity_now = nullptr;

std::mutex install_mutex;
int installed = 0;  // guards alive, all threads
struct sigaction previous[NSIG];

double seconds_between(const timespec& a, const timespec& b) {
  return double(b.tv_sec - a.tv_sec) + double(b.tv_nsec - a.tv_nsec) * 1e-9;
}

[[noreturn]] void stop_kernel(GuardFrame* f) {
  f->stop.last_call = f->activity->last_call;
  // Back on the scheduler's stack with the signal mask of sigsetjmp (the fault signal unblocked).
  siglongjmp(f->back, 1);
}

void on_signal(int signal, siginfo_t* info, void* /*context*/) {
  GuardFrame* f = frame;
  if (signal == watchdog_signal()) {
    // A tick: the running kernel is stuck when its call count has not moved for the limit and it
    // is in its own code (inside an API call it is the emulator working, and progress).
    if (f == nullptr || f->activity == nullptr || !f->activity->guarded || f->limit_seconds <= 0) return;
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (f->activity->api_calls != f->seen_calls || f->activity->in_api > 0) {
      f->seen_calls = f->activity->api_calls;
      f->seen_at = now;
      return;
    }
    const double stalled = seconds_between(f->seen_at, now);
    if (stalled < f->limit_seconds) return;
    f->stop = KernelStop{0, 0, 0, stalled, nullptr};
    stop_kernel(f);
  }
  if (f == nullptr || f->activity == nullptr || !f->activity->guarded || f->activity->in_api > 0) {
    // Not kernel code: the disposition ditmk found (a crash, as it would have been). Returning
    // re-executes the faulting instruction under it.
    sigaction(signal, &previous[signal], nullptr);
    return;
  }
  f->stop = KernelStop{signal, info->si_code, reinterpret_cast<uintptr_t>(info->si_addr), 0, nullptr};
  stop_kernel(f);
}

void install_handlers() {
  std::lock_guard lock(install_mutex);
  if (installed++ > 0) return;
  struct sigaction action {};
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (int signal : kFaultSignals) sigaction(signal, &action, &previous[signal]);
  sigaction(watchdog_signal(), &action, &previous[watchdog_signal()]);
}

void remove_handlers() {
  std::lock_guard lock(install_mutex);
  if (--installed > 0) return;
  for (int signal : kFaultSignals) sigaction(signal, &previous[signal], nullptr);
  sigaction(watchdog_signal(), &previous[watchdog_signal()], nullptr);
}

// The handler runs on this stack: a kernel that overflowed its fiber stack has none left.
constexpr std::size_t kAltStackBytes = 64 * 1024;
thread_local std::vector<std::byte> alt_stack;
thread_local stack_t previous_alt{};

}  // namespace

ApiCallScope::ApiCallScope(const char* name) : activity_(activity_now) {
  if (activity_ == nullptr) return;
  activity_->api_calls = activity_->api_calls + 1;
  activity_->last_call = name;
  activity_->in_api = activity_->in_api + 1;
}

ApiCallScope::~ApiCallScope() {
  if (activity_ != nullptr) activity_->in_api = activity_->in_api - 1;
}

namespace {

const char* signal_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
  }
  return "signal";
}

// siginfo's si_code, in words, for the signals caught
const char* cause(int signal, int code) {
  if (signal == SIGSEGV && code == SEGV_MAPERR) return "address not mapped";
  if (signal == SIGSEGV && code == SEGV_ACCERR) return "access not permitted";
  if (signal == SIGBUS && code == BUS_ADRALN) return "misaligned address";
  if (signal == SIGBUS && code == BUS_ADRERR) return "nonexistent physical address";
  if (signal == SIGFPE && code == FPE_INTDIV) return "integer division by zero";
  if (signal == SIGFPE && code == FPE_INTOVF) return "integer overflow";
  if (signal == SIGFPE) return "arithmetic exception";
  if (signal == SIGILL) return "illegal instruction";
  if (signal == SIGTRAP) return "trap";
  return "raised";
}

}  // namespace

std::string describe(const KernelStop& stop, double limit_seconds) {
  const std::string after =
      stop.last_call ? fmt::format("after its last API call {}", stop.last_call) : "before any API call";
  if (stop.signal == 0) {
    return fmt::format("ran {:.2f} s without a device API call or a wait (watchdog limit {:g} s), {}",
                       stop.stalled_seconds, limit_seconds, after);
  }
  // For SIGSEGV and SIGBUS si_addr is the data address touched, for the others the instruction.
  const char* what = stop.signal == SIGSEGV || stop.signal == SIGBUS ? "address" : "instruction";
  return fmt::format("{} ({}) at {} {:#x} in kernel code, {}", signal_name(stop.signal), cause(stop.signal, stop.code),
                     what, stop.address, after);
}

bool KernelGuard::active() {
#ifdef DITMK_GUARD_OFF
  return false;
#else
  return true;
#endif
}

KernelGuard::KernelGuard(double watchdog_seconds) {
  if (!active()) return;
  require(frame == nullptr, "a kernel guard is already active on this thread");
  install_handlers();
  armed_ = true;
  alt_stack.resize(kAltStackBytes);
  stack_t stack{};
  stack.ss_sp = alt_stack.data();
  stack.ss_size = alt_stack.size();
  sigaltstack(&stack, &previous_alt);
  frame = new GuardFrame;
  frame->limit_seconds = watchdog_seconds;
  if (watchdog_seconds <= 0) return;
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = watchdog_signal();
  event._sigev_un._tid = pid_t(syscall(SYS_gettid));  // this thread, not any thread of the process
  timer_t timer{};
  require(timer_create(CLOCK_MONOTONIC, &event, &timer) == 0, "watchdog: timer_create failed");
  // Ticks at a quarter of the limit (at most 0.25 s), so a stuck kernel stops within 1.25 limits.
  const double tick = std::min(0.25, watchdog_seconds / 4);
  itimerspec spec{};
  spec.it_interval.tv_sec = time_t(tick);
  spec.it_interval.tv_nsec = long((tick - std::floor(tick)) * 1e9);
  spec.it_value = spec.it_interval;
  timer_settime(timer, 0, &spec, nullptr);
  timer_ = new timer_t(timer);
}

KernelGuard::~KernelGuard() {
  if (!armed_) return;
  if (timer_ != nullptr) {
    timer_delete(*static_cast<timer_t*>(timer_));
    delete static_cast<timer_t*>(timer_);
  }
  delete frame;
  frame = nullptr;
  sigaltstack(&previous_alt, nullptr);
  remove_handlers();
}

std::optional<KernelStop> KernelGuard::resume(Fiber& fiber, KernelActivity& activity) {
  activity_now = &activity;
  if (!armed_) {
    fiber.resume();
    activity_now = nullptr;
    return std::nullopt;
  }
  GuardFrame* f = frame;
  f->seen_calls = activity.api_calls;
  clock_gettime(CLOCK_MONOTONIC, &f->seen_at);
  if (sigsetjmp(f->back, 1) == 0) {
    f->activity = &activity;
    fiber.resume();
    f->activity = nullptr;
    activity_now = nullptr;
    return std::nullopt;
  }
  // Landed from the handler: the kernel's frames stay as they were; the fiber is never resumed.
  f->activity = nullptr;
  activity_now = nullptr;
  fiber.abandon();
  return f->stop;
}

}  // namespace ditmk::tt::emu
