#pragma once
// The compiled kernel's exported entry points (the kernel compiler's wrapper includes this after the
// kernel's source), and the C library functions the compiler may emit calls to, since kernels link
// without the C library.
#include <stddef.h>
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk_device_abi.h"

extern "C" __attribute__((visibility("default"))) uint32_t ditmk_kernel_abi_version(void) {
  return DITMK_DEVICE_ABI_VERSION;
}

namespace ditmk::detail {
// A weak function the kernel did not define has a null address.
inline bool defined(void (*function)()) { return function != nullptr; }
}  // namespace ditmk::detail

extern "C" __attribute__((visibility("default"))) void ditmk_kernel_entry(const ditmk_device_abi* abi) {
  ditmk::abi = abi;
  if (ditmk::detail::defined(kernel_main)) {
    kernel_main();
#if defined(COMPILE_FOR_TRISC)
  } else if (ditmk::detail::defined(NAMESPACE::ditmk_compute_main)) {
    NAMESPACE::ditmk_compute_main();
#endif
  } else {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                         "the kernel defines neither void kernel_main() nor namespace NAMESPACE { void MAIN { ... } }");
  }
  abi->dprint(DITMK_DPRINT_FLUSH, 0);
}

// The compiler turns copies and fills into calls of these. The empty asm keeps it from turning the
// loops themselves back into such calls.
extern "C" {
__attribute__((weak, visibility("hidden"))) void* memcpy(void* dst, const void* src, size_t size) {
  unsigned char* d = static_cast<unsigned char*>(dst);
  const unsigned char* s = static_cast<const unsigned char*>(src);
  for (size_t i = 0; i < size; ++i) {
    d[i] = s[i];
    __asm__ volatile("" ::: "memory");
  }
  return dst;
}

__attribute__((weak, visibility("hidden"))) void* memmove(void* dst, const void* src, size_t size) {
  unsigned char* d = static_cast<unsigned char*>(dst);
  const unsigned char* s = static_cast<const unsigned char*>(src);
  if (d < s) {
    for (size_t i = 0; i < size; ++i) {
      d[i] = s[i];
      __asm__ volatile("" ::: "memory");
    }
  } else {
    for (size_t i = size; i > 0; --i) {
      d[i - 1] = s[i - 1];
      __asm__ volatile("" ::: "memory");
    }
  }
  return dst;
}

__attribute__((weak, visibility("hidden"))) void* memset(void* dst, int value, size_t size) {
  unsigned char* d = static_cast<unsigned char*>(dst);
  for (size_t i = 0; i < size; ++i) {
    d[i] = static_cast<unsigned char>(value);
    __asm__ volatile("" ::: "memory");
  }
  return dst;
}

__attribute__((weak, visibility("hidden"))) int memcmp(const void* a, const void* b, size_t size) {
  const unsigned char* x = static_cast<const unsigned char*>(a);
  const unsigned char* y = static_cast<const unsigned char*>(b);
  for (size_t i = 0; i < size; ++i) {
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    __asm__ volatile("" ::: "memory");
  }
  return 0;
}

// Compilers that protect the stack by default call this when a frame's canary was overwritten.
__attribute__((weak, visibility("hidden"), noreturn)) void __stack_chk_fail(void) { __builtin_trap(); }
}
