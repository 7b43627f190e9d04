#pragma once
// ditmk's extension, not tt-metal's: the emulator cannot see a kernel's loads and stores through L1
// pointers, so a data mover that builds or reads pages by hand says how many bytes it moved, and the
// timing model charges them at the RISC's L1 rate (docs/timing.md). On a chip the RISC's own
// cycles are the cost; a kernel that must also build with tt-metal includes this header only where
// `__has_include` finds it.
#include <stdint.h>

#include "ditmk/abi.h"

namespace ditmk {

inline void risc_l1_bytes(uint32_t bytes) { abi->risc_l1_bytes(bytes); }

}  // namespace ditmk
