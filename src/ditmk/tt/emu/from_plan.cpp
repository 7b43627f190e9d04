#include "ditmk/tt/emu/from_plan.hpp"

#include <map>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt::emu {

namespace {

CoreCoord coord_of(tt::Core core) { return {uint32_t(core.x), uint32_t(core.y)}; }

std::set<CoreCoord> coords_of(const std::vector<tt::Core>& cores) {
  std::set<CoreCoord> out;
  for (tt::Core core : cores) out.insert(coord_of(core));
  return out;
}

}  // namespace

uint32_t plan_semaphore_address(uint32_t id) {
  return tt::kL1CbBase - kSemaphoresPerCore * kSemaphoreBytes + id * kSemaphoreBytes;
}

Program program_from_plan(const ProgramSpec& spec, Kernel kernel) {
  Program program;
  program.name = fmt::format("{} {}", kernel_name(spec.kernel), variant_name(spec.variant));
  for (tt::Core core : spec.core_map.all_cores()) program.cores.push_back(coord_of(core));
  // A CB may sit at a different address on each kernel group: one entry per (CB, group).
  for (const CBSpec& cb : spec.cbs) {
    std::map<std::string, std::set<CoreCoord>> by_group;
    for (tt::Core core : spec.core_map.cores_of(cb.role_set)) by_group[spec.group_of(core)].insert(coord_of(core));
    require(!by_group.empty(), "plan CB '{}': core set '{}' is empty", cb.name, cb.role_set);
    for (const auto& [group, cores] : by_group) {
      const auto placed = spec.cb_l1_address.find(group);
      require(placed != spec.cb_l1_address.end() && placed->second.count(cb.name) == 1,
              "plan CB '{}': no L1 address on kernel group '{}'", cb.name, group);
      program.cbs.push_back({cb.name, uint32_t(cb.id), cores, placed->second.at(cb.name), cb.total_bytes,
                             cb.page_bytes, cb.format, !cb.tensor_backed.empty()});
    }
  }
  for (const SemSpec& sem : spec.semaphores) {
    program.semaphores.push_back({sem.name, uint32_t(sem.id), plan_semaphore_address(uint32_t(sem.id)),
                                  sem.initial_value});
  }
  KernelBinding& unified = add_unified_kernel(program, std::move(kernel));
  for (const NamedArg& arg : spec.named_ctas) unified.named_args[arg.name] = arg.value;
  for (const NamedArg& arg : noc_named_args(spec.core_map)) unified.named_args[arg.name] = arg.value;
  for (const tt::RoleFlag& flag : spec.role_flags) {
    unified.role_flags.push_back({flag.name, coords_of(spec.core_map.cores_of(flag.core_set))});
  }
  unified.common_args = spec.common_rt_args;
  for (const auto& [core, args] : spec.per_core_rt_args) {
    unified.core_args[coord_of(core)] = {args.begin(), args.end()};
  }
  unified.math_fidelity = MathFidelity::hifi2;  // the plan's compute config (manifest descriptor)
  validate(program);
  return program;
}

}  // namespace ditmk::tt::emu
