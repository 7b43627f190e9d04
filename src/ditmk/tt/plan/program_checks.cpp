#include "ditmk/tt/plan/program_checks.hpp"

#include <algorithm>
#include <set>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt {

namespace {

bool overlap(const std::vector<Core>& a, const std::vector<Core>& b) {
  return std::any_of(a.begin(), a.end(), [&](Core c) { return std::find(b.begin(), b.end(), c) != b.end(); });
}

}  // namespace

void check_cbs(const ProgramSpec& spec) {
  require(int(spec.cbs.size()) <= kMaxCbs, "{} CBs exceed the limit of {}", spec.cbs.size(), kMaxCbs);
  for (const CBSpec& cb : spec.cbs) {
    require(cb.id >= 0 && cb.id < kNumCbIds, "{}: CB id {} is outside 0..{}", cb.name, cb.id, kNumCbIds - 1);
    require(cb.page_bytes > 0 && cb.total_bytes > 0 && cb.total_bytes % cb.page_bytes == 0,
            "{}: total {} B is not a positive multiple of the page {} B", cb.name, cb.total_bytes, cb.page_bytes);
  }
  for (size_t i = 0; i < spec.cbs.size(); ++i) {
    for (size_t j = i + 1; j < spec.cbs.size(); ++j) {
      const CBSpec& a = spec.cbs[i];
      const CBSpec& b = spec.cbs[j];
      if (a.id != b.id) continue;
      require(!overlap(spec.core_map.cores_of(a.role_set), spec.core_map.cores_of(b.role_set)),
              "CB id {} is used by {} ({}) and {} ({}) on overlapping cores", a.id, a.name, a.role_set, b.name,
              b.role_set);
    }
  }
  // The unpack-to-dest mode list is program-wide, indexed by CB id: every CB with such an id must be fp32.
  for (int id : spec.unpack_to_dest_fp32_cbs) {
    require(id >= 0 && id < kNumCbIds, "unpack_to_dest_fp32 CB id {} is outside 0..{}", id, kNumCbIds - 1);
    for (const CBSpec& cb : spec.cbs) {
      require(cb.id != id || cb.format == TileFormat::fp32,
              "{}: CB id {} is unpacked to dest as fp32 but the CB holds {}", cb.name, id,
              tile_format_name(cb.format));
    }
  }
}

void check_args(const ProgramSpec& spec) {
  std::set<std::string> seen;
  for (const NamedArg& a : spec.named_ctas) {
    require(seen.insert(a.name).second, "named compile-time arg '{}' is defined twice", a.name);
  }
  const size_t common = spec.common_rt_args.size();
  require(common == spec.common_rt_names.size(), "{} common runtime args but {} names", common,
          spec.common_rt_names.size());
  for (const auto& [core, args] : spec.per_core_rt_args) {
    require(args.size() + common <= kMaxRtArgsPerCore,
            "core ({},{}): {} per-core + {} common runtime args = {} exceed the {} words tt-metal allows per core "
            "(common args may be at most {})",
            core.x, core.y, args.size(), common, args.size() + common, kMaxRtArgsPerCore,
            kMaxRtArgsPerCore - args.size());
  }
  require(int(spec.semaphores.size()) <= kMaxSemaphores, "{} semaphores exceed the {} per core",
          spec.semaphores.size(), kMaxSemaphores);
  std::set<int> ids;
  for (const SemSpec& s : spec.semaphores) {
    require(s.id >= 0 && s.id < kMaxSemaphores, "{}: semaphore id {} is outside 0..{}", s.name, s.id,
            kMaxSemaphores - 1);
    require(ids.insert(s.id).second, "{}: semaphore id {} is used twice", s.name, s.id);
  }
}

void check_groups_and_l1(const ProgramSpec& spec) {
  const size_t groups = spec.kernel_groups().size();
  require(groups <= size_t(kMaxKernelGroups), "{} kernel groups exceed the limit of {}", groups, kMaxKernelGroups);
  const std::string kernel(kernel_name(spec.kernel));
  for (const auto& [role, bytes] : spec.l1_bytes) {
    require(bytes <= spec.l1_limit, "{} {} L1 {} B exceeds the limit of {} B ({})", kernel, role, bytes,
            spec.l1_limit,
            spec.kernel == Kernel::k1 ? "usable L1" : "usable L1 minus the kernel-config and allocator margin");
  }
  auto compute = spec.l1_bytes.find("compute");
  if (compute != spec.l1_bytes.end()) {
    require(compute->second <= spec.l1_budget_compute, "{} compute L1 {} B exceeds the budget of {} B", kernel,
            compute->second, spec.l1_budget_compute);
  }
  // The shards hold the top of L1 and the CBs grow up from kL1CbBase; what the limit keeps back of
  // the usable L1 (K4: the kernel-config and allocator margin) lies between the two.
  const uint32_t margin = kL1UsableBytes - std::min(spec.l1_limit, kL1UsableBytes);
  for (const auto& [group, addresses] : spec.cb_l1_address) {
    uint32_t shards = kL1Bytes;
    for (const auto& [name, address] : addresses) {
      if (spec.cb(name).tensor_backed.empty()) continue;
      require(address >= kL1CbBase, "{} {}: {} (L1-sharded {}) would start at L1 {} B, below the usable L1 from {} B",
              kernel, group, name, spec.cb(name).tensor_backed, address, kL1CbBase);
      shards = std::min(shards, address);
    }
    const uint32_t cb_end = shards - std::min(shards, margin);
    for (const auto& [name, address] : addresses) {
      if (!spec.cb(name).tensor_backed.empty()) continue;
      const uint32_t end = address + spec.cb(name).total_bytes;
      require(end <= cb_end, "{} {}: {} ends at L1 {} B, past the CB region end {} B", kernel, group, name, end, cb_end);
    }
  }
}

void check_io(const ProgramSpec& spec) {
  require(!spec.io.empty() && spec.io.back().name == spec.output_slot,
          "the output io slot '{}' must be last (generic_op returns the last io tensor), found '{}'",
          spec.output_slot, spec.io.empty() ? "" : spec.io.back().name);
}

void check_program(const ProgramSpec& spec) {
  check_cbs(spec);
  check_args(spec);
  check_groups_and_l1(spec);
  check_io(spec);
}

}  // namespace ditmk::tt
