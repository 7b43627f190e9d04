#pragma once
// manifest.json of a pack directory: what was packed (checkpoint, version, embodiment, formats,
// folded scale), the files, the op list in offsets-table order, and byte ranges that cover every
// byte of every file exactly once, each tied to the checkpoint tensor part it holds (rows / cols of
// the tensor as stored, embodiment slice, scale) or marked as zero fill.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "ditmk/tt/pack/host_tables.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt {

// The ranges of one arena file, in file order: one per core slice, zero fill between them.
nlohmann::json arena_ranges(const ArenaLayout& layout, Arena arena, int embodiment);

// The ranges of one table file: one per TableRun, zero fill for the rest, in file order.
nlohmann::json table_ranges(const HostTable& table, const std::string& file);

struct PackIdentity {
  std::string checkpoint;
  int embodiment = 0;
  std::string embodiment_tag;  // empty when the id has no tag in embodiment_id.json
};

nlohmann::json pack_manifest(const ArenaLayout& layout, const PackIdentity& identity,
                             const std::vector<HostTable>& tables);

}  // namespace ditmk::tt
