#pragma once
// The timing model (docs/timing.md): replays what a launch recorded (timing_log.hpp) as a discrete
// event simulation. Every processor has a clock; each call costs time from the parameter table
// (timing_params.hpp); a wait advances the clock to the time the awaited pages, credit or data
// arrive; NoC transfers hold the links of their route (noc_model.hpp) and DRAM reads queue at their
// bank. Events are processed in time order with ties broken by issue order, so the same recording
// gives the same times on every machine.
#include <cstdint>
#include <string>
#include <vector>

#include "ditmk/tt/emu/program.hpp"
#include "ditmk/tt/emu/timing_log.hpp"
#include "ditmk/tt/emu/timing_params.hpp"

namespace ditmk::tt::emu {

// What a stretch of a processor's time is.
enum class SpanKind : uint8_t {
  compute,  // TRISC tile work
  mover,    // a data mover's own work: issuing NoC transactions, touching L1 by hand
  wait,     // blocked on a CB, a semaphore or a barrier
};

// Where time on a critical path goes (the per-block breakdown).
enum class PathPart : uint8_t { fpu, streaming, rounds, movers, waits };
constexpr int kPathParts = 5;
std::string_view path_part_name(PathPart part);

// Why a wait ended: another processor's call at `time` (a push, a pop, a local semaphore set), or
// a transfer issued by processor `proc` at `time` that arrived when the wait ended.
struct WaitCause {
  int32_t proc = -1;
  double time = 0;
  PathPart transfer = PathPart::waits;  // streaming (DRAM) or rounds (NoC) for transfers
  bool is_transfer = false;
};

struct Span {
  double start = 0, end = 0;  // cycles
  SpanKind kind = SpanKind::compute;
  uint32_t label = 0;  // index into TimingResult::labels
  WaitCause cause;
};

// A NoC transfer, for the trace: issued at `start`, complete (landed or acknowledged) at `end`.
struct Transfer {
  uint32_t proc = 0;
  double start = 0, end = 0;
  uint32_t label = 0;
  uint32_t bytes = 0;
};

struct Zone {
  uint32_t name = 0;  // index into TimingResult::zone_names
  uint32_t proc = 0;
  uint32_t depth = 0;  // nesting level on its processor
  double start = 0, end = 0;
  bool tagged = false;  // by zone_data (DeviceTimestampedData) while it was open; the last one counts
  uint32_t tag_name = 0;  // the record's name, an index into TimingResult::zone_names
  uint64_t tag = 0;
};

struct ProcessorTimeline {
  uint32_t core = 0;
  Processor processor = Processor::ncrisc;
  std::vector<Span> spans;  // in time order, never overlapping
  double end = 0;           // when its kernel returned
};

struct PathBreakdown {
  double seconds[kPathParts] = {};
};

struct TimingResult {
  double hz = 0;  // cycles per second
  double end = 0;  // the last processor's return, cycles
  std::vector<ProcessorTimeline> processors;
  std::vector<Zone> zones;  // in order of their starts per processor
  std::vector<Transfer> transfers;
  std::vector<std::string> labels;
  std::vector<std::string> zone_names;

  double seconds(double cycles) const { return cycles / hz; }
  // Busy (compute or mover) cycles of processor `proc` within [from, to).
  double busy(uint32_t proc, double from, double to) const;
  // The critical path that ends at `proc` at time `end`, walked back to `start`: each step takes
  // the work the processor did, or jumps to whatever released its wait; the parts add up to
  // end - start.
  PathBreakdown critical_path(uint32_t proc, double end, double start) const;
};

// Throws ditmk::Error when a processor would wait forever: the recorded order then depended on the
// host's scheduling, not on the program's synchronisation.
TimingResult model_timing(const TimingLog& log, const Program& program, const TimingParams& params);

}  // namespace ditmk::tt::emu
