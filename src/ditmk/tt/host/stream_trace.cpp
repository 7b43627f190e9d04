#include "ditmk/tt/host/stream_trace.hpp"

#include <algorithm>

namespace ditmk::tt::host {

namespace {

struct Region {
  uint64_t begin = 0, end = 0;  // offsets inside every bank's part of the arena
  int block = -1;
};

// The stream ops' regions, by offset.
std::vector<Region> block_regions(const ArenaLayout& layout) {
  std::vector<Region> regions;
  for (const ArenaOp* op : layout.stream_ops(Arena::stream))
    regions.push_back({op->bank_offset, op->bank_offset + op->region_bytes, op->block});
  std::sort(regions.begin(), regions.end(), [](const Region& a, const Region& b) { return a.begin < b.begin; });
  return regions;
}

bool holds(const emu::DramBuffer* buffer, const emu::DramRead& read) {
  return buffer != nullptr && read.address >= buffer->address &&
         uint64_t(read.address) + read.bytes <= buffer->address + buffer->bytes_in_bank(read.bank);
}

const emu::DramBuffer* find(const std::map<std::string, const emu::DramBuffer*>& buffers, const char* name) {
  const auto it = buffers.find(name);
  return it == buffers.end() ? nullptr : it->second;
}

}  // namespace

StreamTrace stream_trace(const ArenaLayout& layout, const std::map<std::string, const emu::DramBuffer*>& buffers,
                         const emu::Counters& counters) {
  StreamTrace trace;
  trace.block_weight_bytes.assign(layout.n_blocks, 0);
  const std::vector<Region> regions = block_regions(layout);
  const emu::DramBuffer* stream = find(buffers, "arena_stream");
  const emu::DramBuffer* small = find(buffers, "arena_small");
  for (const emu::DramRead& read : counters.dram_reads) {
    if (holds(small, read)) {
      trace.tail_weight_bytes += read.bytes;
      continue;
    }
    if (holds(stream, read)) {
      const uint64_t offset = read.address - stream->address;
      auto after = std::upper_bound(regions.begin(), regions.end(), offset,
                                    [](uint64_t at, const Region& r) { return at < r.begin; });
      if (after != regions.begin() && offset + read.bytes <= std::prev(after)->end) {
        trace.block_weight_bytes.at(std::prev(after)->block) += read.bytes;
        continue;
      }
    }
    trace.io_read_bytes += read.bytes;  // a stream read outside every block region shows up here
  }
  return trace;
}

}  // namespace ditmk::tt::host
