#pragma once
// The ProgramSpec as JSON: the manifest (everything planned, as data) and the materialised
// descriptor in the shape of tt-metal's ProgramDescriptor. NoC coordinates are left as named
// placeholders ("<noc:hub_x>") that a device loader replaces with the chip's coordinates.
#include <nlohmann/json.hpp>

#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt {

nlohmann::json stats_json(const DescriptorStats& stats);
nlohmann::json arena_json(const ArenaLayout& layout);
nlohmann::json manifest_json(const ProgramSpec& spec);
nlohmann::json descriptor_json(const ProgramSpec& spec);

}  // namespace ditmk::tt
