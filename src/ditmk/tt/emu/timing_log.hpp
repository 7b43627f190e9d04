#pragma once
// What a launch with timing on records for the timing model (timing_model.hpp): per processor, in
// program order, every device call that costs time or orders processors. The functional run
// decides what happens; the model decides afterwards when it happens, so the kernels never
// see a clock and the predicted times do not depend on how the host schedules the fibers.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ditmk/tt/emu/chip.hpp"

namespace ditmk::tt::emu {

enum class OpKind : uint8_t {
  compute,        // TRISC tile work: cost cycles; a = matmul tiles, b = other tile calls
  mover,          // a data mover's own L1 work (tiles built by hand): cost cycles
  cb_reserve,     // a = CB id, b = pages
  cb_push,
  cb_wait,
  cb_pop,
  noc_read,       // a = source endpoint, b = bytes, flag = the DRAM buffer is bfp8_b
  noc_write,      // a = destination endpoint, b = bytes, flag as noc_read
  noc_mcast,      // a = rectangle, b = bytes, c = destinations, flag = loopback
  read_barrier,
  write_barrier,
  sem_inc,        // a = target core, b = semaphore id, c = increment
  sem_set,        // b = semaphore id, c = value, on this core
  sem_mcast,      // a = rectangle, b = semaphore id, c = value
  sem_wait,       // b = semaphore id, c = value, flag = at least (else equal)
  zone_begin,     // a = zone name
  zone_end,
  zone_data,      // a = the record's name (zone_id), b / c = the data's low / high word: tags the innermost open zone
};

// NoC endpoints: a core index, or a DRAM bank past them.
constexpr uint32_t kDramEndpoint = 1000;
inline uint32_t dram_endpoint(uint32_t bank) { return kDramEndpoint + bank; }

// A multicast rectangle in 4 bytes (logical coordinates).
inline uint32_t pack_rect(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  return x0 | y0 << 8 | x1 << 16 | y1 << 24;
}
struct Rect {
  uint32_t x0, y0, x1, y1;
};
inline Rect unpack_rect(uint32_t bits) { return {bits & 0xff, bits >> 8 & 0xff, bits >> 16 & 0xff, bits >> 24}; }

struct TimedOp {
  OpKind kind = OpKind::compute;
  bool flag = false;
  uint32_t a = 0, b = 0, c = 0;
  double cost = 0;
};

struct ProcessorLog {
  uint32_t core = 0;  // core index
  Processor processor = Processor::ncrisc;
  uint32_t noc = 0;  // the NoC its transfers use
  std::vector<TimedOp> ops;
};

struct TimingLog {
  std::vector<ProcessorLog> processors;
  std::vector<std::string> zone_names;
  std::map<std::string, uint32_t, std::less<>> zone_ids;
  uint32_t zone_id(std::string_view name);
};

}  // namespace ditmk::tt::emu
