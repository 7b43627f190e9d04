#pragma once
// The access patterns a DataflowBuffer's producer and consumer may declare, and the trait that names
// a DataflowBuffer type. On Blackhole a DataflowBuffer is one class (the patterns matter on chips
// whose buffers split entries among several processors).
#include <stdint.h>

namespace dfb {
enum AccessPattern : uint8_t {
  STRIDED,
  ALL,
  BLOCKED,
  UNKNOWN,
};
}  // namespace dfb

class DataflowBuffer;
using DataflowBufferAnyPattern = DataflowBuffer;

template <typename T>
inline constexpr bool is_dataflow_buffer_v = false;
template <>
inline constexpr bool is_dataflow_buffer_v<DataflowBuffer> = true;
