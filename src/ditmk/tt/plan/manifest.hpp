#pragma once
// The ProgramSpec as JSON: the manifest, everything planned, as data. The program as tt-metal takes
// it is the ProgramDescriptor of dialect/plan_descriptor.hpp.
#include <nlohmann/json_fwd.hpp>

#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt {

nlohmann::json stats_json(const DescriptorStats& stats);
nlohmann::json arena_json(const ArenaLayout& layout);
nlohmann::json manifest_json(const ProgramSpec& spec);

}  // namespace ditmk::tt
