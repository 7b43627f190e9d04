#pragma once
// Named compile-time args: `#define KERNEL_COMPILE_TIME_ARG_MAP {"name",1},{"other",2}` (the
// kernel compiler's generated header, in tt-metal's form: the entries, no braces around them), read
// by get_named_compile_time_arg_val("name") as a constant expression. A name the map lacks does not
// compile where a constant is required, and faults (missing_arg) where it is read at run time.
#include <stddef.h>
#include <stdint.h>

#include "ditmk/abi.h"

namespace ditmk::detail {

struct NamedArg {
  const char* name;
  uint32_t value;
};

#ifdef KERNEL_COMPILE_TIME_ARG_MAP
constexpr NamedArg named_args[] = {KERNEL_COMPILE_TIME_ARG_MAP};
constexpr size_t named_arg_count = sizeof(named_args) / sizeof(named_args[0]);
#else
constexpr NamedArg named_args[] = {{"", 0}};
constexpr size_t named_arg_count = 0;
#endif

constexpr bool same_text(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

// Not constexpr: reaching it in a constant expression is the compile error for an unknown name.
inline uint32_t no_named_compile_time_arg_of_that_name(const char* name) {
  fault(DITMK_FAULT_MISSING_ARG, Message() << "get_named_compile_time_arg_val(\"" << name
                                           << "\"): the kernel has no named compile-time arg of that name");
}

}  // namespace ditmk::detail

constexpr uint32_t get_named_compile_time_arg_val(const char* name) {
  for (size_t i = 0; i < ditmk::detail::named_arg_count; ++i) {
    if (ditmk::detail::same_text(ditmk::detail::named_args[i].name, name)) return ditmk::detail::named_args[i].value;
  }
  return ditmk::detail::no_named_compile_time_arg_of_that_name(name);
}
