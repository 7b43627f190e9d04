#pragma once
// Positional compile-time args: -DKERNEL_COMPILE_TIME_ARGS=1,2,3 (empty or absent when there are
// none), read as constant expressions, as tt-metal's get_compile_time_arg_val.
#include <stddef.h>
#include <stdint.h>

#include <array>

#ifndef KERNEL_COMPILE_TIME_ARGS
#define KERNEL_COMPILE_TIME_ARGS
#endif

namespace ditmk::detail {
template <typename... Values>
constexpr std::array<uint32_t, sizeof...(Values)> compile_time_args(Values... values) {
  return {{uint32_t(values)...}};
}
}  // namespace ditmk::detail

constexpr auto kernel_compile_time_args = ditmk::detail::compile_time_args(KERNEL_COMPILE_TIME_ARGS);

template <size_t Index>
constexpr uint32_t get_ct_arg() {
  static_assert(Index < kernel_compile_time_args.size(),
                "get_compile_time_arg_val: the index is past the kernel's compile_time_args");
  return kernel_compile_time_args[Index];
}

// A macro, as in tt-metal: the index must be a constant expression.
#define get_compile_time_arg_val(arg_idx) get_ct_arg<(arg_idx)>()
