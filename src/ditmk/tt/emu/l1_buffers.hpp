#pragma once
// Tensors in L1 (tt-metal's BufferType::L1): the L1 banks of the worker cores and the buffers the
// host places in them. tt-metal's allocator gives every worker core one L1 bank and numbers the banks
// by shuffling the cores' row-major order; an interleaved buffer's page p lies in bank p % the bank
// count, a sharded buffer's shard i on the i-th of its cores. A buffer has one address on all of its
// cores, above the program's CBs (the allocator places L1 buffers from the top of L1 down).
#include <cstdint>
#include <string>
#include <vector>

#include "ditmk/tt/emu/chip.hpp"

namespace ditmk::tt::emu {

// One L1 bank per worker core of the emulated grid.
constexpr uint32_t kNumL1Banks = kNumCores;
// The core holding L1 bank `bank` (< kNumL1Banks): the banks numbered as tt-metal's allocator does,
// a std::shuffle of the row-major cores with std::default_random_engine seeded 0.
CoreCoord l1_bank_core(uint32_t bank);

// `bytes` at `address` on each of `cores` (an interleaved buffer's: every core, in bank order; a
// sharded buffer's: its shard cores in shard order).
struct L1Buffer {
  std::string name;
  std::vector<CoreCoord> cores;
  uint32_t address = 0;
  uint32_t bytes = 0;
};

}  // namespace ditmk::tt::emu
