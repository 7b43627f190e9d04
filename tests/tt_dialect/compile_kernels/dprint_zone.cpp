// DPRINT and a profiler zone from a data-movement kernel.
#include <cstdint>

#include "debug/dprint.h"
#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
  DeviceZoneScopedN("greeting");
  DPRINT << "tiles " << get_arg_val<uint32_t>(0) << " at x " << my_x[0] << ENDL();
}
