#pragma once
// tt-metal's internal/mod_div_lib.h: integer helpers that stand in for the RISC-V library's
// multiply and divide calls on the chip. Here the host's compiler multiplies and divides, so each
// helper is the plain operation with the same name and argument order.
#include <stdint.h>

#include "ditmk/attributes.h"

FORCE_INLINE unsigned int mulsi3(unsigned int a, unsigned int b) { return a * b; }

// Division and remainder by a divisor known at compile time.
template <uint32_t d>
FORCE_INLINE uint32_t udivsi3_const_divisor(uint32_t n) {
  static_assert(d != 0, "udivsi3_const_divisor: the divisor must not be 0");
  return n / d;
}

template <uint32_t d>
FORCE_INLINE uint32_t umodsi3_const_divisor(uint32_t a) {
  static_assert(d != 0, "umodsi3_const_divisor: the divisor must not be 0");
  return a % d;
}
