#include "ditmk/tt/emu/timing_log.hpp"

namespace ditmk::tt::emu {

uint32_t TimingLog::zone_id(std::string_view name) {
  auto it = zone_ids.find(name);
  if (it != zone_ids.end()) return it->second;
  const uint32_t id = uint32_t(zone_names.size());
  zone_names.emplace_back(name);
  zone_ids.emplace(std::string(name), id);
  return id;
}

}  // namespace ditmk::tt::emu
