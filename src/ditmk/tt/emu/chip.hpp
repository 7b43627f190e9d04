#pragma once
// The emulated Blackhole p150 as the megakernel uses it: the worker grid, L1, DRAM banks, the three
// processors a unified kernel runs on, and the rates the time bound is computed from.
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace ditmk::tt::emu {

// Logical worker coordinates; the emulator also uses them as NoC coordinates.
struct CoreCoord {
  uint32_t x = 0;
  uint32_t y = 0;
  auto operator<=>(const CoreCoord&) const = default;
};
std::string core_name(CoreCoord core);  // "(x,y)"

constexpr uint32_t kGridX = 11;
constexpr uint32_t kGridY = 10;
constexpr uint32_t kNumCores = kGridX * kGridY;
constexpr uint32_t kL1Bytes = 1536 * 1024;
constexpr uint32_t kNumDramBanks = 8;
constexpr uint32_t kSemaphoresPerCore = 16;
constexpr uint32_t kMaxCbId = 64;  // Blackhole CB ids 0..63
// fp32 destination registers in tiles: 16 bf16 tiles of DST hold 8 when fp32 accumulation is on.
constexpr uint32_t kDstTiles = 8;
constexpr uint32_t kSemaphoreBytes = 16;  // one semaphore word, padded to the L1 NoC alignment
constexpr uint32_t kDramAlignment = 64;   // DRAM pages are laid out at this granularity

inline uint32_t core_index(CoreCoord core) { return core.y * kGridX + core.x; }
inline CoreCoord core_at(uint32_t index) { return {index % kGridX, index / kGridX}; }
inline bool on_grid(CoreCoord core) { return core.x < kGridX && core.y < kGridY; }

// The three processors of a Tensix core that run a unified kernel. The seed's kernel issues DRAM
// reads and gathers from NCRISC on NoC 0 and writes/multicasts from BRISC on NoC 1.
enum class Processor : uint8_t { ncrisc, brisc, trisc };
std::string_view processor_name(Processor processor);
inline uint32_t noc_of(Processor processor) { return processor == Processor::brisc ? 1 : 0; }

// Rates of the time bound (docs/emulator.md). DRAM: measured direct-mode streaming of the 8 banks
// together, per weight format. NoC: a link moves 64 B per aiclk cycle (1.35 GHz), so one core can
// inject or eject at most 86.4 GB/s on each of its two NoCs.
constexpr double kDramBf16BytesPerSecond = 464e9;
constexpr double kDramBfp8BytesPerSecond = 414e9;
constexpr double kAiclkHz = 1.35e9;
constexpr double kNocBytesPerCycle = 64;
constexpr double kNocPortBytesPerSecond = kNocBytesPerCycle * kAiclkHz;

}  // namespace ditmk::tt::emu
