#pragma once
// Kernel-side profiler zones, as tt-metal's DeviceZoneScopedN: a named span of the running
// processor, recorded for the timing model and the trace when the launch times itself and free
// otherwise. Zones nest; the kernel never reads a time back.
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

}  // namespace ditmk::tt::emu
