#pragma once
// The ABI table of the emulator a compiled kernel runs in, and faults raised from device headers.
#include <stdint.h>

#include "ditmk_device_abi.h"

namespace ditmk {

// Set by ditmk_kernel_entry before the kernel runs. One object serves every core that runs it, and
// the table is the same for all of them, so one pointer per object is enough.
__attribute__((visibility("hidden"))) inline const ditmk_device_abi* abi = nullptr;

namespace detail {

// A fault message built without the C library: fixed capacity, cut short when longer.
class Message {
 public:
  Message& operator<<(const char* text) {
    while (text && *text && size_ + 1 < sizeof(text_)) text_[size_++] = *text++;
    text_[size_] = '\0';
    return *this;
  }
  Message& operator<<(uint32_t value) {
    char digits[10];
    uint32_t n = 0;
    do {
      digits[n++] = char('0' + value % 10);
      value /= 10;
    } while (value);
    while (n && size_ + 1 < sizeof(text_)) text_[size_++] = digits[--n];
    text_[size_] = '\0';
    return *this;
  }
  const char* c_str() const { return text_; }

 private:
  char text_[240];
  uint32_t size_ = 0;
};

// The emulator raises the fault as an exception; the call does not come back.
[[noreturn]] inline void fault(uint32_t kind, const Message& message) {
  abi->fault(kind, message.c_str());
  __builtin_unreachable();
}

[[noreturn]] inline void fault(uint32_t kind, const char* message) {
  abi->fault(kind, message);
  __builtin_unreachable();
}

}  // namespace detail
}  // namespace ditmk
