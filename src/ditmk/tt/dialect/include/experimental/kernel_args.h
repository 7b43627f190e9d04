#pragma once
// Metal 2.0's named kernel arguments (tt-metal 0.81.1's experimental/kernel_args.h). The JIT writes,
// for each kernel a ProgramSpec creates, an `args` namespace of constants, one per named argument
// (kernel_args_generated.h; ditmk's kernel compiler writes the same text into the kernel's wrapper
// from the descriptor's runtime_arguments_schema and named_compile_time_args), and get_arg() reads
// each the way its kind travels: a runtime arg of this core, a common runtime arg, or a compile-time
// constant. A kernel reads `get_arg(args::Wt)` whichever kind the host chose for Wt.
//
// Only 32-bit arguments, as in 0.81.1. TT_KERNEL entries (the JIT generating kernel_main from a typed
// signature) are not modelled: the macro is not defined, so such a kernel does not compile.
#include <stdint.h>

#include "ditmk/attributes.h"
#include "ditmk/kernel_args.h"

namespace experimental {

// byte_offset: where the word lies in the core's runtime args (RtaArg) or the common ones (CrtaArg),
// counted in bytes from the first named one, as the JIT emits it.
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

// A compile-time arg is a constant expression: `constexpr auto Wt = get_arg(args::Wt);`.
template <typename T>
FORCE_INLINE constexpr T get_arg(CtaVal<T> arg) {
  return arg.value;
}

}  // namespace experimental
