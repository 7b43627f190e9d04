#pragma once
// Typed handles of a kernel's args, as generated kernel headers name them: a runtime arg or common
// runtime arg by byte offset into the args, a compile-time value carried in the handle itself.
// get_arg(handle) reads the arg through the same calls as get_arg_val / get_common_arg_val.
#include <stdint.h>

#include "ditmk/attributes.h"
#include "ditmk/kernel_args.h"

#define TT_KERNEL static FORCE_INLINE

namespace experimental {

template <typename T>
struct RtaArg {
  uint32_t byte_offset;
};

template <typename T>
struct CrtaArg {
  uint32_t byte_offset;
};

template <typename T>
struct CtaVal {
  T value;
};

template <typename T>
FORCE_INLINE T get_arg(RtaArg<T> arg) {
  return get_arg_val<T>(int(arg.byte_offset / sizeof(uint32_t)));
}

template <typename T>
FORCE_INLINE T get_arg(CrtaArg<T> arg) {
  return get_common_arg_val<T>(int(arg.byte_offset / sizeof(uint32_t)));
}

template <typename T>
FORCE_INLINE constexpr T get_arg(CtaVal<T> arg) {
  return arg.value;
}

}  // namespace experimental
