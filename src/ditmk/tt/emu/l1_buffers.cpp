#include "ditmk/tt/emu/l1_buffers.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <random>

namespace ditmk::tt::emu {

namespace {

// bank -> core index. tt-metal shuffles the bank ids and hands them to the cores in row-major order:
// the core at row-major position i gets bank shuffled[i].
std::array<uint32_t, kNumL1Banks> make_bank_cores() {
  std::array<uint32_t, kNumL1Banks> shuffled;
  std::iota(shuffled.begin(), shuffled.end(), 0u);
  std::shuffle(shuffled.begin(), shuffled.end(), std::default_random_engine(0));
  std::array<uint32_t, kNumL1Banks> cores;
  for (uint32_t i = 0; i < kNumL1Banks; ++i) cores[shuffled[i]] = i;
  return cores;
}

}  // namespace

CoreCoord l1_bank_core(uint32_t bank) {
  static const std::array<uint32_t, kNumL1Banks> cores = make_bank_cores();
  return core_at(cores[bank]);
}

}  // namespace ditmk::tt::emu
