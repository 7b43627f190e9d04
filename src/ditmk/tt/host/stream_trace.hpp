#pragma once
// What a launch of the megakernel streamed, read from the chip's log of DRAM reads: each read of
// the stream arena belongs to the DiT block whose op region (the same offsets in every bank) holds
// it, the small arena's reads are the tail ops', every other read is io (tables, masks, hoisted K/V,
// the Euler state). The report shows with it that each weight byte is read exactly once per step.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ditmk/tt/emu/counters.hpp"
#include "ditmk/tt/emu/dram.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt::host {

struct StreamTrace {
  std::vector<uint64_t> block_weight_bytes;  // per DiT block, summed over the steps of the launch
  uint64_t tail_weight_bytes = 0;            // output head, decoder and encoder slices
  uint64_t io_read_bytes = 0;                // every other DRAM read
};

// `buffers`: the launch's DRAM buffers by io slot name (arena_stream and arena_small among them).
StreamTrace stream_trace(const ArenaLayout& layout, const std::map<std::string, const emu::DramBuffer*>& buffers,
                         const emu::Counters& counters);

}  // namespace ditmk::tt::host
