#include "ditmk/tt/emu/counters.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ditmk::tt::emu {

uint64_t Counters::dram_read_bytes() const {
  uint64_t total = 0;
  for (const BankTraffic& bank : dram) total += bank.read_bytes;
  return total;
}

uint64_t Counters::dram_write_bytes() const {
  uint64_t total = 0;
  for (const BankTraffic& bank : dram) total += bank.write_bytes;
  return total;
}

TimeBound time_lower_bound(const Counters& counters) {
  TimeBound bound;
  // Each bank streams an eighth of the aggregate rate; the slowest bank finishes last.
  for (uint32_t bank = 0; bank < kNumDramBanks; ++bank) {
    const BankTraffic& t = counters.dram[bank];
    const double other = double(t.read_bytes + t.write_bytes - t.bfp8_bytes);
    const double seconds = other / (kDramBf16BytesPerSecond / kNumDramBanks) +
                           double(t.bfp8_bytes) / (kDramBfp8BytesPerSecond / kNumDramBanks);
    if (seconds > bound.dram_seconds) {
      bound.dram_seconds = seconds;
      if (seconds > bound.seconds) {
        bound.seconds = seconds;
        bound.limited_by = fmt::format("dram bank {}", bank);
      }
    }
  }
  for (uint32_t index = 0; index < kNumCores; ++index) {
    const CoreTraffic& t = counters.cores[index];
    for (uint32_t noc = 0; noc < 2; ++noc) {
      for (const bool sent : {true, false}) {
        const double seconds =
            double(sent ? t.sent_bytes[noc] : t.received_bytes[noc]) / kNocPortBytesPerSecond;
        if (seconds > bound.noc_seconds) bound.noc_seconds = seconds;
        if (seconds > bound.seconds) {
          bound.seconds = seconds;
          bound.limited_by = fmt::format("noc {} core {} {}", noc, core_name(core_at(index)),
                                         sent ? "sent" : "received");
        }
      }
    }
  }
  return bound;
}

nlohmann::json to_json(const Counters& counters) {
  nlohmann::json banks = nlohmann::json::array();
  for (const BankTraffic& t : counters.dram) {
    banks.push_back({{"read_bytes", t.read_bytes}, {"write_bytes", t.write_bytes},
                     {"bfp8_b_bytes", t.bfp8_bytes}});
  }
  nlohmann::json nocs = nlohmann::json::array();
  for (const NocTraffic& t : counters.noc) {
    nocs.push_back({{"bytes", t.bytes}, {"transfers", t.transfers}});
  }
  nlohmann::json cores = nlohmann::json::array();
  for (uint32_t index = 0; index < kNumCores; ++index) {
    const CoreTraffic& t = counters.cores[index];
    if (t.transfers[0] + t.transfers[1] + t.received_bytes[0] + t.received_bytes[1] == 0) continue;
    const CoreCoord core = core_at(index);
    cores.push_back({{"core", {core.x, core.y}},
                     {"sent_bytes", t.sent_bytes},
                     {"received_bytes", t.received_bytes},
                     {"transfers", t.transfers}});
  }
  nlohmann::json high_water = nlohmann::json::object();
  for (const CbHighWater& cb : counters.cb_high_water) {
    high_water[cb.name] = {{"id", cb.id},
                           {"used", cb.used_bytes},
                           {"planned", cb.planned_bytes},
                           {"core", {cb.core.x, cb.core.y}}};
  }
  return {{"dram_banks", banks},
          {"dram_bytes_read", counters.dram_read_bytes()},
          {"dram_bytes_written", counters.dram_write_bytes()},
          {"noc", nocs},
          {"cores", cores},
          {"cb_high_water", high_water}};
}

nlohmann::json to_json(const TimeBound& bound) {
  return {{"dram_seconds", bound.dram_seconds},
          {"noc_seconds", bound.noc_seconds},
          {"seconds", bound.seconds},
          {"limited_by", bound.limited_by}};
}

}  // namespace ditmk::tt::emu
