#pragma once
// Internal state of the emulated chip during a launch, shared by the scheduler (device.cpp) and the
// device API (api_*.cpp). Kernels never see it: they call the tt-metal style functions.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ditmk/tt/emu/counters.hpp"
#include "ditmk/tt/emu/dram.hpp"
#include "ditmk/tt/emu/fault.hpp"
#include "ditmk/tt/emu/fiber.hpp"
#include "ditmk/tt/emu/kernel_guard.hpp"
#include "ditmk/tt/emu/l1_buffers.hpp"
#include "ditmk/tt/emu/l1_memory.hpp"
#include "ditmk/tt/emu/program.hpp"
#include "ditmk/tt/emu/timing_log.hpp"
#include "ditmk/tt/emu/written_map.hpp"

namespace ditmk::tt::emu {

// An L1 range a kernel may touch: one CB, one semaphore word or an L1 buffer's bytes on the core.
struct Region {
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string name;  // "CB 'cb_w' #2", "semaphore 'sem_w' #0" or "L1 buffer 'x'"
};

// tt-metal's CB interface: pages pushed/popped since the launch began, read/write page positions.
// The write pointer wraps only when it lands exactly on the end, so a window that would straddle the
// end is a fault.
struct CbRuntime {
  const CbConfig* config = nullptr;
  uint32_t pages = 0;
  uint32_t pushed = 0;
  uint32_t popped = 0;
  uint32_t reserved = 0;  // pages the producer reserved and has not pushed yet
  uint32_t wr_page = 0;
  uint32_t rd_page = 0;
  uint32_t packed = 0;  // tiles packed into the current reservation
  uint32_t high_water_pages = 0;
  uint32_t occupied() const { return pushed - popped; }
  uint32_t free_pages() const { return pages - occupied(); }
  std::string name() const { return fmt::format("'{}' #{}", config->name, config->id); }
  std::string state() const {
    return fmt::format("{} of {} pages filled, {} reserved (pushed {}, popped {})", occupied(),
                       pages, reserved, pushed, popped);
  }
};

struct CoreMemory {
  std::byte* l1 = nullptr;  // this core's part of ChipState::l1
  WrittenMap written{kL1Bytes};
};

struct CoreRuntime {
  CoreCoord coord;
  bool in_program = false;
  bool holds_l1_buffer = false;  // an L1 buffer lies here (the NoC reaches it even where no kernel runs)
  std::vector<Region> regions;  // sorted by address
  std::vector<CbRuntime> cb_storage;
  std::array<CbRuntime*, kMaxCbId> cbs{};
  std::array<const SemaphoreConfig*, kSemaphoresPerCore> semaphores{};
  const Region* find(uint32_t address, uint32_t size) const;
};

// A NoC transfer in flight: the source bytes as they were when it was issued, delivered to the
// destination when the issuing processor passes the matching barrier.
struct PendingTransfer {
  std::vector<std::byte> data;
  bool to_dram = false;
  uint32_t bank = 0;
  std::vector<uint32_t> core_indices;  // L1 destinations (several for a multicast)
  uint32_t address = 0;
};

// wait_ahead: the packer's tile_regs_wait came before math's tile_regs_commit in program order. On
// silicon each TRISC runs only its own role's calls, so the packer blocks there until the commit;
// the one emulated TRISC runs on, math calls still filling DST and packs reading it as it stands.
enum class DstState { released, acquired, committed, waited, wait_ahead };

struct ProcessorRuntime {
  CoreRuntime* core = nullptr;
  Processor processor = Processor::ncrisc;
  const KernelBinding* kernel = nullptr;
  const std::vector<uint32_t>* args = nullptr;  // the kernel's runtime args on this core, if any
  uint32_t noc = 0;
  std::unique_ptr<Fiber> fiber;
  KernelActivity activity;  // API calls made and the last one's name, for the guard (kernel_guard.hpp)
  std::function<bool()> ready;            // set while blocked
  std::function<std::string()> waiting_on;  // what it waits for, with the state, for a deadlock
  bool cancel = false;
  std::optional<Fault> fault;  // what stopped this processor
  std::vector<PendingTransfer> reads, writes;
  DstState dst_state = DstState::released;
  uint32_t packed_ahead = 0;  // DST tiles packed in wait_ahead (a bit each): math into them is refused
  std::vector<float> dst;      // kDstTiles tiles, row-major 32x32 each
  std::vector<float> operand;  // scratch for two unpacked operand tiles
  ProcessorLog* log = nullptr;   // set when the launch times itself
  // State of the dialect's compute calls (tt/device_abi/device_abi.cpp): fields below this line.
  struct DialectState {
    // What tt-metal leaves to the hardware's configuration, which the dialect's calls check.
    bool hw_configured = false;      // a full init (compute_kernel_hw_startup, *_init_common, mm_init, ...) ran
    uint32_t op_init = UINT32_MAX;   // ditmk_compute_init of the last op init, UINT32_MAX before any
    uint32_t op_param0 = 0, op_param1 = 0;
    uint64_t sfpu_inits = 0;         // bit per ditmk_sfpu_op whose init ran
    uint32_t sfpu_binary_inits = 0;  // bit per ditmk_sfpu_binary_op whose init ran
    bool reduce_mask = false;        // reduce_init's packer edge mask is set
    bool pack_untilize = false;      // the packer writes row-major rows (pack_untilize_init, untilize_init)
    bool legacy_dst = false;         // inside acquire_dst ... release_dst
    uint32_t dst_written = 0;        // bit per DST tile an op wrote since the DST was acquired
    // The args as the kernel reads them through get_arg_addr / get_common_arg_addr.
    std::vector<uint32_t> args, common_args;
    bool args_copied = false, common_args_copied = false;
    // DPRINT: the unfinished line and the stream's manipulators.
    std::string print_line;
    uint32_t print_base = 10, print_width = 0, print_precision = 6;
    bool print_fixed = false;
    // Non-blocking CB polls answered no in a row while the CB did not change.
    uint64_t idle_polls = 0, poll_mark = 0;
    // The stateful NoC calls' state, reads [0] and writes [1]: a NoC address's endpoint word and a size.
    struct NocState {
      uint64_t endpoint = 0;
      uint32_t size = 0;
      bool set = false;
    } noc_state[2];
  } dialect;
  std::string where() const {
    if (kernel->source.empty()) return fmt::format("core {} {}", core_name(core->coord), processor_name(processor));
    return fmt::format("kernel {} on core {} {}", kernel->source, core_name(core->coord), processor_name(processor));
  }
};

struct ChipState {
  Dram dram;
  L1Memory l1;
  std::vector<CoreMemory> memory = std::vector<CoreMemory>(kNumCores);
  std::unique_ptr<Program> program;
  std::deque<L1Buffer> l1_buffers;  // stable addresses: callers keep references
  std::vector<CoreRuntime> cores = std::vector<CoreRuntime>(kNumCores);
  std::vector<std::unique_ptr<ProcessorRuntime>> processors;
  Counters counters;
  bool timing = false;
  double watchdog_seconds = kDefaultWatchdogSeconds;  // 0: no watchdog
  // Strict: what silicon accepts but is likely a bug faults instead of warning (docs/emulator.md).
  bool strict = false;
  std::vector<std::string> warnings;  // this launch's, each once, in the order first met
  TimingLog timing_log;
  // Per core: queued NoC transfers into its L1 not delivered yet (a push of a compiled kernel's
  // pages needs the pending ones' ranges only when there are any).
  std::vector<uint32_t> inbound_pending = std::vector<uint32_t>(kNumCores, 0);
};

// The chip and processor whose fiber is running (set by the scheduler around each resume).
ChipState& chip();
ProcessorRuntime& current();
void set_current(ChipState* chip, ProcessorRuntime* processor);

// Thrown into a blocked processor's fiber to unwind it when the launch stops on a fault.
struct LaunchCancelled {};

template <typename... Args>
[[noreturn]] void raise(FaultKind kind, fmt::format_string<Args...> format, Args&&... args) {
  throw FaultRaised(Fault{kind, current().where(), fmt::format(format, std::forward<Args>(args)...), {}});
}

// A warning of this launch (each distinct line once): what silicon accepts but a strict run refuses.
template <typename... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
  std::string line = fmt::format(format, std::forward<Args>(args)...);
  std::vector<std::string>& warnings = chip().warnings;
  if (std::find(warnings.begin(), warnings.end(), line) == warnings.end()) warnings.push_back(std::move(line));
}

// Blocks the running processor until `ready` holds; `waiting_on` describes the wait for a deadlock.
void wait_until(std::function<bool()> ready, std::function<std::string()> waiting_on);

// L1 of the running core, checked: [address, address+size) must lie inside one region.
const Region& local_region(uint32_t address, uint32_t size, std::string_view what);
std::byte* l1_bytes(uint32_t core_index, uint32_t address);
// Faults when any byte of the range on that core was never written this launch.
void require_written_l1(uint32_t core_index, uint32_t address, uint32_t size, std::string_view what);
void deliver(PendingTransfer& transfer);
// A compute call on a CB of integer tiles faults (bad_call, naming the call, the CB and its format):
// the emulator's compute ops model only float tiles, and would otherwise compute garbage.
void require_float_tiles(const CbRuntime& cb, std::string_view call);

// Timing records of the running processor (no-ops when the launch does not time itself). Compute
// costs add up into the previous record while nothing else happened in between.
inline void record(const TimedOp& op) {
  if (ProcessorLog* log = current().log) log->ops.push_back(op);
}
void record_compute(double cycles, bool matmul);

}  // namespace ditmk::tt::emu
