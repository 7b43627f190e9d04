// The safetensors header parser over arbitrary bytes (the whole file: header length, JSON header,
// data section). An Error is the expected answer to bad input; any other exception, a crash, a leak
// or a sanitizer report is a finding. A header that passes must keep every tensor inside the data
// section: the harness reads each tensor's first and last byte, which ASan checks.
#include <cstddef>
#include <cstdint>

#include "ditmk/core/error.hpp"
#include "ditmk/io/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto* bytes = reinterpret_cast<const std::byte*>(data);
  try {
    const ditmk::io::SafetensorsHeader header = ditmk::io::parse_safetensors_header(bytes, size, "fuzz.safetensors");
    std::byte seen{};
    for (const auto& [name, entry] : header.entries) {
      if (entry.end == entry.begin) continue;
      seen ^= bytes[header.data_offset + entry.begin];
      seen ^= bytes[header.data_offset + entry.end - 1];
    }
    volatile std::byte sink = seen;
    (void)sink;
  } catch (const ditmk::Error&) {
  }
  return 0;
}
