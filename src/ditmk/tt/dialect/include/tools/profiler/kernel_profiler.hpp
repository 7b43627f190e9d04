#pragma once
// Device profiler zones, as tt-metal's DeviceZoneScopedN("name"): a named span of the running
// processor from the statement to the end of its scope, recorded for the timing model and the trace
// when the launch times itself, free otherwise. The emulator's zone lives inside the kernel's frame.
#include <stdint.h>

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

}  // namespace ditmk

#define DITMK_ZONE_JOIN2(a, b) a##b
#define DITMK_ZONE_JOIN(a, b) DITMK_ZONE_JOIN2(a, b)
#define DeviceZoneScopedN(name) ::ditmk::DeviceZoneScope DITMK_ZONE_JOIN(ditmk_zone_, __LINE__)(name)
// tt-metal's other zone flavours (the firmware's main zone, summed zones) are plain zones here.
#define DeviceZoneScopedMainN(name) DeviceZoneScopedN(name)
#define DeviceZoneScopedMainChildN(name) DeviceZoneScopedN(name)
#define DeviceZoneScopedSumN1(name) DeviceZoneScopedN(name)
#define DeviceZoneScopedSumN2(name) DeviceZoneScopedN(name)
// tt-metal's timestamped data record (its id a number, as tt-metal's older form takes it): the
// emulator tags the innermost open zone with it, which the trace shows and reports read.
#define DeviceTimestampedData(data_id, data) ::ditmk::abi->zone_data(uint32_t(data_id), uint64_t(data))
