// DPRINT and a profiler zone, tagged with a timestamped-data record (the older numeric id), and a
// zone inside it tagged by a named record (tt-metal 0.81.1's form), from a data-movement kernel.
#include <cstdint>

#include "debug/dprint.h"
#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
  DeviceZoneScopedN("greeting");
  DeviceTimestampedData(5, uint64_t(get_arg_val<uint32_t>(0)) << 32 | 1);
  {
    DeviceZoneScopedN("inner");
    DeviceTimestampedData("tiles", get_arg_val<uint32_t>(0));
  }
  DPRINT << "tiles " << get_arg_val<uint32_t>(0) << " at x " << my_x[0] << ENDL();
}
