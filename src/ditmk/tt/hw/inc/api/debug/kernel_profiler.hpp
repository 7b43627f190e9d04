#pragma once
// Device profiler zones, as tt-metal's DeviceZoneScopedN("name"): a named span of the running
// processor from the statement to the end of its scope, recorded for the timing model and the trace
// when the launch times itself, free otherwise. The emulator's zone lives inside the kernel's frame.
// tt-metal 0.81.1's path; tools/profiler/kernel_profiler.hpp is the older one.
#include <stdint.h>

#include <type_traits>

#include "ditmk/abi.h"

namespace ditmk {

class DeviceZoneScope {
 public:
  explicit DeviceZoneScope(const char* name) { abi->zone_begin(storage_, name); }
  ~DeviceZoneScope() { abi->zone_end(storage_); }
  DeviceZoneScope(const DeviceZoneScope&) = delete;
  DeviceZoneScope& operator=(const DeviceZoneScope&) = delete;

 private:
  alignas(8) unsigned char storage_[DITMK_ZONE_STORAGE_BYTES];
};

// A timestamped data record under `name`: tt-metal 0.81.1's string literal, or the number older
// trees took, which the record carries as its decimal text, so every record has a name.
template <typename Name>
inline void timestamped_data(Name name, uint64_t data) {
  if constexpr (std::is_integral_v<Name> || std::is_enum_v<Name>) {
    char text[12];
    char* at = text + sizeof text;
    *--at = '\0';
    uint32_t value = uint32_t(name);
    do *--at = char('0' + value % 10), value /= 10;
    while (value != 0);
    abi->zone_data(at, data);
  } else {
    abi->zone_data(name, data);
  }
}

}  // namespace ditmk

#define DITMK_ZONE_JOIN2(a, b) a##b
#define DITMK_ZONE_JOIN(a, b) DITMK_ZONE_JOIN2(a, b)
#define DeviceZoneScopedN(name) ::ditmk::DeviceZoneScope DITMK_ZONE_JOIN(ditmk_zone_, __LINE__)(name)
// tt-metal's other zone flavours (the firmware's main zone, summed zones) are plain zones here.
#define DeviceZoneScopedMainN(name) DeviceZoneScopedN(name)
#define DeviceZoneScopedMainChildN(name) DeviceZoneScopedN(name)
#define DeviceZoneScopedSumN1(name) DeviceZoneScopedN(name)
#define DeviceZoneScopedSumN2(name) DeviceZoneScopedN(name)
// tt-metal's timestamped data record, named by a string literal (0.81.1) or a number (older trees):
// the emulator tags the innermost open zone with it, which the trace shows and reports read.
#define DeviceTimestampedData(name, data) ::ditmk::timestamped_data(name, uint64_t(data))
