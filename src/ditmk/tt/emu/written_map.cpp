#include "ditmk/tt/emu/written_map.hpp"

#include <bit>

namespace ditmk::tt::emu {

namespace {
// Bits [from, to) of one 64-bit word, 0 <= from < to <= 64.
uint64_t bit_span(uint64_t from, uint64_t to) {
  const uint64_t high = to == 64 ? ~0ull : (1ull << to) - 1;
  return high & ~((1ull << from) - 1);
}
}  // namespace

void WrittenMap::set_range(uint64_t begin, uint64_t size, bool value) {
  uint64_t pos = begin;
  const uint64_t end = begin + size;
  while (pos < end) {
    const uint64_t word = pos / 64, from = pos % 64;
    const uint64_t to = std::min<uint64_t>(64, from + (end - pos));
    const uint64_t bits = bit_span(from, to);
    words_[word] = value ? (words_[word] | bits) : (words_[word] & ~bits);
    pos += to - from;
  }
}

void WrittenMap::mark(uint64_t begin, uint64_t size) { set_range(begin, size, true); }
void WrittenMap::clear(uint64_t begin, uint64_t size) { set_range(begin, size, false); }

uint64_t WrittenMap::first_unwritten(uint64_t begin, uint64_t size) const {
  uint64_t pos = begin;
  const uint64_t end = begin + size;
  while (pos < end) {
    const uint64_t word = pos / 64, from = pos % 64;
    const uint64_t to = std::min<uint64_t>(64, from + (end - pos));
    const uint64_t missing = ~words_[word] & bit_span(from, to);
    if (missing) return word * 64 + uint64_t(std::countr_zero(missing));
    pos += to - from;
  }
  return end;
}

}  // namespace ditmk::tt::emu
