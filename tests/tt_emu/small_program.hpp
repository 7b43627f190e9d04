#pragma once
// Small programs for the emulator tests: a few cores, a few CBs, one kernel.
#include <cstring>
#include <vector>

#include "ditmk/core/rng.hpp"
#include "ditmk/tt/emu/device.hpp"
#include "ditmk/tt/emu/device_api.hpp"

namespace ditmk::tt::emu::testing {

constexpr uint32_t kBase = 0x20000;
constexpr uint32_t kBf16Tile = 2048;

// Cores (0,0)..(n-1,0); CB `name` #id of `pages` tiles in `format` on the given cores, placed one
// after another from kBase; semaphores 0..sems-1 after them.
struct SmallProgram {
  Program program;
  uint32_t next = kBase;

  explicit SmallProgram(uint32_t n_cores, Kernel kernel) {
    program.name = "small";
    for (uint32_t x = 0; x < n_cores; ++x) program.cores.push_back({x, 0});
    add_unified_kernel(program, std::move(kernel));
  }
  KernelBinding& kernel() { return program.kernels.front(); }
  uint32_t cb(const char* name, uint32_t id, uint32_t pages, TileFormat format = TileFormat::bf16,
              std::set<CoreCoord> cores = {}) {
    if (cores.empty()) cores = {program.cores.begin(), program.cores.end()};
    const uint32_t page = uint32_t(tile_bytes(format));
    program.cbs.push_back({name, id, cores, next, pages * page, page, format, false});
    const uint32_t address = next;
    next += (pages * page + 31) / 32 * 32;
    return address;
  }
  uint32_t semaphore(const char* name, uint32_t id, uint32_t initial = 0) {
    program.semaphores.push_back({name, id, next, initial});
    const uint32_t address = next;
    next += kSemaphoreBytes;
    return address;
  }
};

inline std::vector<std::byte> random_bytes(uint64_t seed, std::size_t size) {
  CounterRng rng(seed, 0);
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = std::byte(rng.bits(i) & 0xff);
  return bytes;
}

// Random tile values (a few units in size) as the bytes of a bf16 tile.
inline std::vector<float> random_values(uint64_t seed, uint64_t stream, std::size_t n) {
  CounterRng rng(seed, stream);
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = float(rng.normal(i));
  return values;
}

inline LaunchReport run(Program program) {
  Device device;
  device.load(std::move(program));
  return device.launch();
}

}  // namespace ditmk::tt::emu::testing
