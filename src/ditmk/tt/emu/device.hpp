#pragma once
// The emulated chip as the host sees it: DRAM buffers to allocate, fill and read, a program to load,
// tensor-backed CBs to upload, and launches that return their faults and counters.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ditmk/tt/emu/counters.hpp"
#include "ditmk/tt/emu/dram.hpp"
#include "ditmk/tt/emu/fault.hpp"
#include "ditmk/tt/emu/l1_buffers.hpp"
#include "ditmk/tt/emu/program.hpp"
#include "ditmk/tt/emu/timing_model.hpp"

namespace ditmk::tt::emu {

struct LaunchReport {
  std::vector<Fault> faults;  // empty when the launch ran clean; at most one otherwise (it stops)
  std::vector<std::string> warnings;  // what silicon accepts and a strict launch refuses, each once
  Counters counters;
  TimeBound bound;
  std::shared_ptr<const TimingResult> timing;  // when the device times its launches and it ran clean
  bool clean() const { return faults.empty(); }
};
nlohmann::json to_json(const LaunchReport& report);

struct ChipState;

class Device {
 public:
  Device();
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // At the next free address, or at `address` (Dram::allocate).
  const DramBuffer& allocate_interleaved(std::string name, TileFormat format, uint64_t size,
                                         uint32_t page_bytes, std::optional<uint32_t> address = std::nullopt);
  const DramBuffer& allocate_sharded(std::string name, TileFormat format, uint64_t size,
                                     uint32_t shard_bytes, std::optional<uint32_t> address = std::nullopt);
  void write_buffer(const DramBuffer& buffer, std::span<const std::byte> bytes);
  std::vector<std::byte> read_buffer(const DramBuffer& buffer) const;

  // A tensor in L1 (l1_buffers.hpp), kept across programs and launches as a DRAM buffer is; its bytes
  // are unwritten until the host or a kernel writes them. Throws ditmk::Error for cores off the grid,
  // a range outside L1 or one overlapping another L1 buffer on a core.
  const L1Buffer& allocate_l1(L1Buffer buffer);
  void write_l1(const L1Buffer& buffer, CoreCoord core, uint32_t offset, std::span<const std::byte> bytes);
  // Throws ditmk::Error when any of the bytes was never written.
  std::vector<std::byte> read_l1(const L1Buffer& buffer, CoreCoord core, uint32_t offset, uint32_t size) const;

  // Validates the program (throws ditmk::Error) and lays its CBs and semaphores out in L1; none may
  // overlap an L1 buffer on a core the buffer lies on.
  void load(Program program);
  // Host upload into a tensor-backed CB of one core, at byte `offset` of the CB.
  void write_cb(CoreCoord core, std::string_view cb_name, std::span<const std::byte> bytes,
                uint32_t offset = 0);
  // The first `size` bytes of a CB on one core (all of it by default: a smaller size reads the pages
  // a short last shard holds); throws ditmk::Error when any of them was never written.
  std::vector<std::byte> read_cb(CoreCoord core, std::string_view cb_name, uint32_t size = UINT32_MAX) const;

  // Launches record what they do and the timing model predicts their time on the chip (the
  // report's `timing`); off by default, as it costs memory and a replay.
  void set_timing(bool on);
  // A processor that runs this long without a device API call or a wait ends its launch with a
  // no_progress fault (kDefaultWatchdogSeconds; 0 turns the watchdog off).
  void set_watchdog(double seconds);
  // Strict launches fault where silicon would go on and a default one warns (a pack_tile without
  // cb_reserve_back, ...); off by default.
  void set_strict(bool on);
  bool strict() const;

  // Runs the loaded program once on every core. Never hangs and never throws for a faulty program:
  // the first fault stops the launch and is returned in the report, a signal in kernel code or a
  // stuck kernel included (kernel_guard.hpp).
  LaunchReport launch();

 private:
  std::unique_ptr<ChipState> chip_;
};

}  // namespace ditmk::tt::emu
