// DPRINT and a profiler zone, tagged with a timestamped-data record, from a data-movement kernel.
#include <cstdint>

#include "debug/dprint.h"
#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
  DeviceZoneScopedN("greeting");
  DeviceTimestampedData(5, uint64_t(get_arg_val<uint32_t>(0)) << 32 | 1);
  DPRINT << "tiles " << get_arg_val<uint32_t>(0) << " at x " << my_x[0] << ENDL();
}
