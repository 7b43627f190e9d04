#pragma once
// Runtime args, per core and common, as tt-metal's get_arg_val / get_arg_addr. The addresses point
// at the running processor's own copy of its args; an index past the args is a missing_arg fault.
#include <stdint.h>

#include <type_traits>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"

static FORCE_INLINE uintptr_t get_arg_addr(int arg_idx) {
  return reinterpret_cast<uintptr_t>(ditmk::abi->arg_address(uint32_t(arg_idx)));
}

static FORCE_INLINE uintptr_t get_common_arg_addr(int arg_idx) {
  return reinterpret_cast<uintptr_t>(ditmk::abi->common_arg_address(uint32_t(arg_idx)));
}

template <typename T>
FORCE_INLINE T get_arg_val(int arg_idx) {
  static_assert(sizeof(T) == 4, "only 4-byte runtime args are supported");
  const uint32_t value = ditmk::abi->arg(uint32_t(arg_idx));
  return __builtin_bit_cast(T, value);
}

template <typename T>
FORCE_INLINE T get_common_arg_val(int arg_idx) {
  static_assert(sizeof(T) == 4, "only 4-byte runtime args are supported");
  const uint32_t value = ditmk::abi->common_arg(uint32_t(arg_idx));
  return __builtin_bit_cast(T, value);
}
