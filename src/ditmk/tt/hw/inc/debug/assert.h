#pragma once
// ASSERT(condition[, assert_type]): tt-metal checks it only when its watcher is on; the emulator
// always does, and a false condition is a bad_call fault naming the expression, file and line.
#include <stdint.h>

#include "ditmk/abi.h"

namespace ditmk::detail {
inline void check_assert(bool condition, const char* expression, const char* file, uint32_t line) {
  if (!condition)
    fault(DITMK_FAULT_BAD_CALL, Message() << "ASSERT(" << expression << ") failed at " << file << ":" << line);
}
}  // namespace ditmk::detail

#define ASSERT(condition, ...) \
  ::ditmk::detail::check_assert(static_cast<bool>(condition), #condition, __FILE__, __LINE__)
