#pragma once
// The emulator's 64-bit NoC address: the low 32 bits are the address at the endpoint, the high bits
// say which endpoint (one core, a rectangle of cores, or a DRAM bank).
#include <cstdint>

namespace ditmk::tt::emu {

enum class NocTarget : uint8_t { core = 1, multicast = 2, dram = 3 };

struct NocAddress {
  NocTarget target = NocTarget::core;
  uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // core: (x0, y0); dram: bank in x0
  uint32_t address = 0;
};

inline uint64_t encode(const NocAddress& a) {
  return uint64_t(a.target) << 60 | uint64_t(a.x0 & 0x3f) << 32 | uint64_t(a.y0 & 0x3f) << 38 |
         uint64_t(a.x1 & 0x3f) << 44 | uint64_t(a.y1 & 0x3f) << 50 | a.address;
}

inline NocAddress decode(uint64_t bits) {
  NocAddress a;
  a.target = NocTarget(bits >> 60);
  a.x0 = (bits >> 32) & 0x3f;
  a.y0 = (bits >> 38) & 0x3f;
  a.x1 = (bits >> 44) & 0x3f;
  a.y1 = (bits >> 50) & 0x3f;
  a.address = uint32_t(bits);
  return a;
}

}  // namespace ditmk::tt::emu
