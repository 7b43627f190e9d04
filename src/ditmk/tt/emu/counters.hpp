#pragma once
// What a launch moved, and the least time the real chip would need to move it.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ditmk/tt/emu/chip.hpp"

namespace ditmk::tt::emu {

struct BankTraffic {
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
  uint64_t bfp8_bytes = 0;  // of read + write, the bytes of bfp8_b buffers (slower stream rate)
};

struct NocTraffic {
  uint64_t bytes = 0;  // injected: a multicast counts once
  uint64_t transfers = 0;
};

// Per core and NoC: bytes the core's port injected (sent) and ejected (received).
struct CoreTraffic {
  std::array<uint64_t, 2> sent_bytes{};
  std::array<uint64_t, 2> received_bytes{};
  std::array<uint64_t, 2> transfers{};
};

// The most a CB held at once (pages pushed and not popped, plus pages reserved), on the core where
// that peak was reached, against the bytes the plan gave it.
struct CbHighWater {
  std::string name;
  uint32_t id = 0;
  uint32_t used_bytes = 0;
  uint32_t planned_bytes = 0;
  CoreCoord core;
};

// One DRAM read a kernel issued: the bank, the address in it, the bytes. A host attributes them to
// its buffers (and to regions inside one, as the megakernel's report does per DiT block).
struct DramRead {
  uint32_t bank = 0;
  uint32_t address = 0;
  uint32_t bytes = 0;
};

struct Counters {
  std::array<BankTraffic, kNumDramBanks> dram{};
  std::vector<DramRead> dram_reads;  // every read of the launch, in issue order
  std::array<NocTraffic, 2> noc{};
  std::vector<CoreTraffic> cores = std::vector<CoreTraffic>(kNumCores);
  std::vector<CbHighWater> cb_high_water;

  uint64_t dram_read_bytes() const;
  uint64_t dram_write_bytes() const;
};

// Lower bound of the launch on the real chip: the busiest DRAM bank at its share of the streaming
// rate, and the busiest NoC port at 64 B per cycle. Latency, compute and imbalance only add to it.
struct TimeBound {
  double dram_seconds = 0;
  double noc_seconds = 0;
  double seconds = 0;
  std::string limited_by;  // "dram bank 3", "noc 1 core (10,9) received"
};
TimeBound time_lower_bound(const Counters& counters);

nlohmann::json to_json(const Counters& counters);
nlohmann::json to_json(const TimeBound& bound);

}  // namespace ditmk::tt::emu
