#pragma once
// Faults: what the emulator reports instead of hanging or corrupting data. A launch stops at the
// first fault; the report names the core, the processor and the CB/semaphore/address involved.
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace ditmk::tt::emu {

enum class FaultKind {
  deadlock,         // every unfinished processor waits on something nobody will provide
  cb_overflow,      // more pages pushed/reserved than the CB has room for, or a window past its end
  cb_underflow,     // more pages popped/read than were pushed
  unwritten_read,   // bytes read that nobody wrote since the launch began (or the host uploaded)
  out_of_bounds,    // L1 outside the core's CBs/semaphores, DRAM outside a buffer
  multicast_target, // a multicast destination core without that region, or a wrong destination count
  missing_arg,      // a runtime or compile-time arg that does not exist
  bad_call,         // an API call that is invalid where it is made (compute call on NCRISC, DST index)
  kernel_signal,    // kernel code raised a signal: a wild pointer, an integer division by zero, ...
  no_progress,      // kernel code ran past the watchdog's limit without an API call or a wait
};
std::string_view fault_kind_name(FaultKind kind);

struct Fault {
  FaultKind kind = FaultKind::bad_call;
  std::string where;    // "core (3,4) TRISC", empty for a deadlock
  std::string message;  // one line
  std::vector<std::string> waiters;  // deadlock: one line per blocked processor with the state
};
std::string to_string(const Fault& fault);

// Raised inside a processor's fiber; the scheduler turns it into the launch's fault.
class FaultRaised : public std::exception {
 public:
  explicit FaultRaised(Fault fault) : fault_(std::move(fault)) {}
  const Fault& fault() const { return fault_; }
  const char* what() const noexcept override { return fault_.message.c_str(); }

 private:
  Fault fault_;
};

}  // namespace ditmk::tt::emu
