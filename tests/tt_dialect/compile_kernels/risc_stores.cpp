// A data mover that builds bytes by hand inside a zone and says so (ditmk's timing note).
#include <cstdint>

#include "ditmk/risc_l1.h"
#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
  DeviceZoneScopedN("by_hand");
  ditmk::risc_l1_bytes(get_arg_val<uint32_t>(0));
}
