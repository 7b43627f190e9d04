#pragma once
// tt-metal's internal/risc_attribs.h: the attributes of its RISC-V kernel build (tt_l1_ptr,
// tt_reg_ptr and FORCE_INLINE, ditmk/attributes.h: empty qualifiers here, L1 being plain memory),
// L1 word counts, the inline-write destinations, and a 64-bit L1 word read as two 32-bit halves
// (the chip's L1 port is 32 bits wide; here the halves are read in the same order).
#include <stddef.h>
#include <stdint.h>

#include "ditmk/attributes.h"

union tt_uint64_t {
  uint64_t v;
  struct {
    uint32_t hi;
    uint32_t lo;
  };
};

enum class L1WordCount : int32_t {};

constexpr L1WordCount l1_word_count_from_bytes(size_t bytes) { return L1WordCount(int32_t(bytes / sizeof(uint32_t))); }

template <typename T>
constexpr L1WordCount l1_word_count_from_range(T* start, T* end) {
  static_assert(sizeof(T) == sizeof(uint32_t), "an L1 word range is a range of 32-bit elements");
  return L1WordCount(int32_t(end - start));
}

enum class InlineWriteDst : uint8_t { DEFAULT = 0, L1 = 1, REG = 2 };

template <typename Word>
inline __attribute__((always_inline)) uint64_t ditmk_l1_load_halves(Word* word) {
  tt_uint64_t out;
  out.hi = word->hi;
  out.lo = word->lo;
  return out.v;
}
inline __attribute__((always_inline)) uint64_t tt_l1_load(tt_uint64_t tt_l1_ptr* p) { return ditmk_l1_load_halves(p); }
inline __attribute__((always_inline)) uint64_t tt_l1_load(volatile tt_uint64_t* tt_l1_ptr p) {
  return ditmk_l1_load_halves(p);
}
