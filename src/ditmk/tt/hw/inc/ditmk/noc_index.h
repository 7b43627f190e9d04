#pragma once
// The NoC a data-movement kernel was built for (-DNOC_INDEX; 0 for compute kernels).
#include <stdint.h>

#ifndef NOC_INDEX
#define NOC_INDEX 0
#endif
constexpr uint8_t noc_index = NOC_INDEX;

// The NoC modes the JIT's NOC_MODE names (tt-metal's hostdev/dev_msgs.h); every transfer rides the
// kernel's own NoC, the dedicated mode.
enum noc_mode : uint8_t { DM_DEDICATED_NOC = 0, DM_DYNAMIC_NOC = 1, DM_INVALID_NOC = 2 };
