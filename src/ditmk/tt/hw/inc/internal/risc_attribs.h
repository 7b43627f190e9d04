#pragma once
// tt-metal's internal/risc_attribs.h: the kernel attributes (ditmk/attributes.h: L1 is plain memory
// here, so the address-space qualifiers are empty), a 64-bit value read from L1 as two words, and
// the word counts and inline-write destinations the dataflow helpers take.
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

// A count of 32-bit L1 words.
enum class L1WordCount : int32_t {};

constexpr L1WordCount l1_word_count_from_bytes(size_t bytes) { return static_cast<L1WordCount>(bytes / 4); }

template <typename T>
constexpr L1WordCount l1_word_count_from_range(T* start, T* end) {
  static_assert(sizeof(T) == sizeof(uint32_t), "L1WordCount ranges must use 32-bit elements");
  return static_cast<L1WordCount>(end - start);
}

// Where an inline NoC write lands.
enum class InlineWriteDst : uint8_t { DEFAULT = 0, L1 = 1, REG = 2 };

// The 64-bit value at p, read as its two 32-bit words (hi first, as the chip's loads do; the union
// gives the value back in the host's byte order).
FORCE_INLINE uint64_t tt_l1_load(tt_uint64_t tt_l1_ptr* p) {
  tt_uint64_t v;
  v.hi = p->hi;
  v.lo = p->lo;
  return v.v;
}

FORCE_INLINE uint64_t tt_l1_load(volatile tt_uint64_t* tt_l1_ptr p) {
  tt_uint64_t v;
  v.hi = p->hi;
  v.lo = p->lo;
  return v.v;
}
