#pragma once
// Circular buffers from a compute kernel: the same calls as a data-movement kernel's.
#include "api/compute/common_globals.h"
#include "ditmk/circular_buffer.h"
#include "hostdevcommon/kernel_structs.h"

namespace ckernel {
using ::cb_pages_available_at_front;
using ::cb_pages_reservable_at_back;
using ::cb_pop_front;
using ::cb_push_back;
using ::cb_reserve_back;
using ::cb_wait_front;
}  // namespace ckernel
