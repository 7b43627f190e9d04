#pragma once
// The timing model's result as a Chrome / Perfetto trace (the JSON object format that
// ui.perfetto.dev and chrome://tracing open): one process per core, one track per processor with
// its compute, data-mover and wait spans, one zone track per processor with the kernel's profiler
// zones, and the NoC transfers as async spans from issue to completion.
#include <ostream>

#include "ditmk/tt/emu/timing_model.hpp"

namespace ditmk::tt::emu {

// Track (tid) numbers inside a core's process.
constexpr int kZoneTrackOffset = 3;  // zones of processor p on track 3 + p

void write_chrome_trace(const TimingResult& timing, std::ostream& out);

}  // namespace ditmk::tt::emu
