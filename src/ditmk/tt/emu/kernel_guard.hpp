#pragma once
// Kernel code is native code on the scheduler thread. A signal it raises (a wild pointer, an integer
// division by zero, an illegal instruction) or a loop that never comes back to the emulator would
// otherwise kill or hang the process that launched it. A KernelGuard, alive for one launch on one
// thread, catches both in kernel code and jumps back to the scheduler, which ends the launch with a
// fault (docs/emulator.md, "Bad kernels", says why this is safe and where it stops).
#include <csetjmp>
#include <cstdint>
#include <optional>
#include <string>

namespace ditmk::tt::emu {

class Fiber;

// What a running processor has done, read by the signal handler: plain fields, written only by
// the thread the guard watches.
struct KernelActivity {
  volatile uint64_t api_calls = 0;         // device API calls made (progress, for the watchdog)
  const char* volatile last_call = nullptr;  // name of the last device API call, a literal
  volatile uint32_t in_api = 0;            // > 0 inside a device API call: emulator code, not the kernel's
  // Compiled kernel code calling through the device ABI (whose calls are marked). A kernel built
  // into ditmk (the megakernel's native binding) calls the emulator directly, unmarked, so neither
  // its signals nor its stretches between waits can be told from the emulator's: not guarded.
  bool guarded = false;
};

// Marks one device API call: progress for the watchdog, the name a fault reports, and "inside the
// emulator" for the handler (a signal there is the emulator's own bug and is not caught).
class ApiCallScope {
 public:
  explicit ApiCallScope(const char* name);
  ~ApiCallScope();
  ApiCallScope(const ApiCallScope&) = delete;
  ApiCallScope& operator=(const ApiCallScope&) = delete;

 private:
  KernelActivity* activity_;
};

// How a guarded run of a fiber ended early.
struct KernelStop {
  int signal = 0;            // the signal, 0 for the watchdog
  int code = 0;              // siginfo's si_code
  uintptr_t address = 0;     // si_addr: the faulting data address (SIGSEGV, SIGBUS), the instruction (SIGFPE, SIGILL)
  double stalled_seconds = 0;  // watchdog: how long the kernel ran without an API call or a wait
  const char* last_call = nullptr;
};

// One line: what stopped the kernel ("SIGSEGV (address not mapped) at address 0x10, after
// cb_reserve_back"), for a fault's message; `limit_seconds` is the watchdog's.
std::string describe(const KernelStop& stop, double limit_seconds);

// The watchdog's default: a processor that runs this long without a device API call or a wait is
// stuck (the slowest legitimate stretch, a matmul block between two CB calls, takes milliseconds).
inline constexpr double kDefaultWatchdogSeconds = 10.0;

class KernelGuard {
 public:
  // Installs the handlers (process-wide, shared by every guard), an alternate signal stack for this
  // thread and, when watchdog_seconds > 0, a timer that interrupts this thread. Under
  // AddressSanitizer the guard does nothing: ASan owns SIGSEGV and its fiber bookkeeping cannot
  // follow a jump out of a fiber.
  explicit KernelGuard(double watchdog_seconds);
  ~KernelGuard();
  KernelGuard(const KernelGuard&) = delete;
  KernelGuard& operator=(const KernelGuard&) = delete;

  // Resumes the fiber with `activity` as the running processor's. Returns how it was stopped when a
  // signal in kernel code or the watchdog ended it; the fiber is then abandoned (finished, its stack
  // never resumed, what its frames own leaked).
  std::optional<KernelStop> resume(Fiber& fiber, KernelActivity& activity);

  static bool active();  // whether guards work in this build

 private:
  bool armed_ = false;
  void* timer_ = nullptr;  // timer_t
};

}  // namespace ditmk::tt::emu
