#pragma once
// CoreMap: which of the 11 x 10 Tensix workers does what. 96 compute cores (one per output tile
// of the [64, 1536] activation), 8 readers (one per DRAM bank), the hub and 5 spares, the first
// of which is the second hub of K4b. docs/plan.md explains the placement.
#include <array>
#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ditmk::tt {

struct Core {
  int x = 0, y = 0;
  auto operator<=>(const Core&) const = default;
};

struct CoreRange {
  Core start, end;  // inclusive corners
  bool operator==(const CoreRange&) const = default;
};

enum class Role { compute, reader, hub, spare };
std::string_view role_name(Role role);

// Per-core runtime words, the same layout on every core and RISC.
using PerCoreArgs = std::array<uint32_t, 5>;
inline constexpr std::array<const char*, 5> kPerCoreArgNames = {"compute_idx", "bank_id", "vc", "head_idx", "group"};

class CoreMap {
 public:
  Core grid{11, 10};
  Core hub;
  Core hub2;                 // K4b second hub: the first spare
  std::vector<Core> spare;   // includes hub2
  std::vector<Core> readers;  // reader i serves DRAM bank i
  std::vector<Core> compute;  // by compute_idx
  std::pair<Core, Core> mcast_rect;

  int n_compute() const { return int(compute.size()); }
  int n_readers() const { return int(readers.size()); }
  Role role_of(Core core) const;  // throws for a core off the grid
  std::vector<Core> all_cores() const;  // row-major over the grid
  int compute_idx(Core core) const;  // -1 when not a compute core
  std::map<Core, PerCoreArgs> per_core_args() const;
  // Named core sets: all, compute, readers, hub, hubs (hub + hub2), spare.
  std::vector<Core> cores_of(std::string_view set) const;
  std::map<std::string, std::vector<CoreRange>> to_core_range_sets() const;
};

// The placement every plan uses (docs/plan.md).
CoreMap blackhole_core_map();

// Cores -> the fewest row-aligned rectangles this greedy merge finds (rows first, then equal runs
// of consecutive rows).
std::vector<CoreRange> to_ranges(std::vector<Core> cores);

}  // namespace ditmk::tt
