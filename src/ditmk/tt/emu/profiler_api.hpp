#pragma once
// Kernel-side profiler zones, as tt-metal's DeviceZoneScopedN: a named span of the running
// processor, recorded for the timing model and the trace when the launch times itself and free
// otherwise. Zones nest; the kernel never reads a time back.
#include <cstdint>
#include <string_view>

namespace ditmk::tt::emu {

class DeviceZone {
 public:
  explicit DeviceZone(std::string_view name);
  ~DeviceZone();
  DeviceZone(const DeviceZone&) = delete;
  DeviceZone& operator=(const DeviceZone&) = delete;

 private:
  bool open_ = false;
};

// tt-metal's DeviceTimestampedData(name, data): a named record in the profile at this point. The
// emulator tags the processor's innermost open zone with it, so zones that share a literal name (as
// tt-metal requires) still say which block or round they are.
void zone_data(std::string_view name, uint64_t data);

}  // namespace ditmk::tt::emu
