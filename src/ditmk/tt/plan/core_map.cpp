#include "ditmk/tt/plan/core_map.hpp"

#include <algorithm>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt {

std::string_view role_name(Role role) {
  switch (role) {
    case Role::compute: return "compute";
    case Role::reader: return "reader";
    case Role::hub: return "hub";
    case Role::spare: return "spare";
  }
  return "?";
}

CoreMap blackhole_core_map() {
  CoreMap m;
  // Hub at the centre of the compute block: the 96-tile gather and the multicast back travel at
  // most ~5 hops each way. The second hub sits next to it; the other spares fill the centre and
  // the end of the readers' column.
  m.hub = {4, 4};
  m.hub2 = {5, 4};
  m.spare = {{5, 4}, {4, 5}, {5, 5}, {10, 8}, {10, 9}};
  // Readers in the east column, one per bank, out of the compute block's NoC paths.
  for (int bank = 0; bank < 8; ++bank) m.readers.push_back({10, bank});
  // Compute cores row-major over columns 0..9, skipping the centre: rows 0..4 hold exactly the 48
  // cores of tile row 0 and rows 5..9 those of tile row 1.
  for (int y = 0; y < 10; ++y) {
    for (int x = 0; x < 10; ++x) {
      Core c{x, y};
      if (c == m.hub || std::find(m.spare.begin(), m.spare.end(), c) != m.spare.end()) continue;
      m.compute.push_back(c);
    }
  }
  // cb_a sits at the same L1 address on all 110 cores, so the hub multicasts to the whole grid.
  m.mcast_rect = {{0, 0}, {m.grid.x - 1, m.grid.y - 1}};
  return m;
}

Role CoreMap::role_of(Core core) const {
  require(core.x >= 0 && core.y >= 0 && core.x < grid.x && core.y < grid.y, "core ({},{}) is off the {}x{} grid",
          core.x, core.y, grid.x, grid.y);
  if (core == hub) return Role::hub;
  if (std::find(readers.begin(), readers.end(), core) != readers.end()) return Role::reader;
  if (compute_idx(core) >= 0) return Role::compute;
  return Role::spare;
}

std::vector<Core> CoreMap::all_cores() const {
  std::vector<Core> cores;
  for (int y = 0; y < grid.y; ++y) {
    for (int x = 0; x < grid.x; ++x) cores.push_back({x, y});
  }
  return cores;
}

int CoreMap::compute_idx(Core core) const {
  auto it = std::find(compute.begin(), compute.end(), core);
  return it == compute.end() ? -1 : int(it - compute.begin());
}

std::map<Core, PerCoreArgs> CoreMap::per_core_args() const {
  const uint32_t na = kNotApplicable;
  std::map<Core, PerCoreArgs> args;
  for (Core core : all_cores()) args[core] = {na, na, na, na, na};
  for (int c = 0; c < n_compute(); ++c) {
    // bank_id: the bank the core's weight slices live in; vc: the cores sharing a bank spread their
    // read requests over the 4 unicast virtual channels; group: Q / K / V third (head cores are 0).
    args[compute[c]] = {uint32_t(c), uint32_t(c % 8), uint32_t((c / 8) % 4), uint32_t(c % 32), uint32_t(c / 32)};
  }
  for (int r = 0; r < n_readers(); ++r) args[readers[r]][1] = uint32_t(r);
  args[hub][4] = 0;
  if (!spare.empty()) args[hub2][4] = 1;
  return args;
}

std::vector<Core> CoreMap::cores_of(std::string_view set) const {
  if (set == "all") return all_cores();
  if (set == "compute") return compute;
  if (set == "readers") return readers;
  if (set == "hub") return {hub};
  if (set == "hubs") return spare.empty() ? std::vector<Core>{hub} : std::vector<Core>{hub, hub2};
  if (set == "spare") return spare;
  fail("core set '{}' is not one of all, compute, readers, hub, hubs, spare", set);
}

std::vector<CoreRange> to_ranges(std::vector<Core> cores) {
  std::sort(cores.begin(), cores.end(), [](Core a, Core b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
  std::vector<CoreRange> runs;
  for (Core c : cores) {
    if (!runs.empty() && runs.back().end.y == c.y && runs.back().end.x + 1 == c.x) {
      runs.back().end.x = c.x;
    } else {
      runs.push_back({c, c});
    }
  }
  std::vector<CoreRange> merged;
  for (const CoreRange& r : runs) {
    auto below = std::find_if(merged.begin(), merged.end(), [&](const CoreRange& m) {
      return m.start.x == r.start.x && m.end.x == r.end.x && m.end.y + 1 == r.start.y;
    });
    if (below != merged.end()) below->end.y = r.end.y;
    else merged.push_back(r);
  }
  return merged;
}

std::map<std::string, std::vector<CoreRange>> CoreMap::to_core_range_sets() const {
  std::map<std::string, std::vector<CoreRange>> sets;
  for (const char* name : {"all", "compute", "readers", "hub", "hubs", "spare"}) sets[name] = to_ranges(cores_of(name));
  return sets;
}

}  // namespace ditmk::tt
