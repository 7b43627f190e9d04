#pragma once
// How a semaphore's accesses travel (SemScope), and the token a generated kernel header hands a
// Semaphore. On Blackhole a data-movement semaphore is a word in L1 read and written in place
// (LOCAL_NONATOMIC); the other scopes name paths of other chips, or the compute engine's own
// semaphores.
#include <stdint.h>

enum class SemScope : uint8_t {
  LOCAL_NONATOMIC = 0,
  DM_LOCAL_CACHED = 1,
  EXTERNAL = 2,
  COMPUTE_ATOMIC = 3,
};

namespace semaphore_detail {
template <auto>
inline constexpr bool always_false = false;
}  // namespace semaphore_detail

struct SemaphoreBindingToken {
  uint32_t id;
  SemScope scope;
};
