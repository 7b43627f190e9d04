#include "ditmk/tt/plan/program_spec.hpp"

#include <algorithm>

#include "ditmk/core/error.hpp"

namespace ditmk::tt {

std::string_view kernel_name(Kernel kernel) { return kernel == Kernel::k1 ? "k1" : "k4"; }

std::vector<NamedArg> noc_named_args(const CoreMap& cm) {
  const Core hub1 = cm.spare.empty() ? cm.hub : cm.hub2;
  auto u = [](int v) { return uint32_t(v); };
  return {{"mcast_noc_x0", u(cm.mcast_rect.first.x)}, {"mcast_noc_y0", u(cm.mcast_rect.first.y)},
          {"mcast_noc_x1", u(cm.mcast_rect.second.x)}, {"mcast_noc_y1", u(cm.mcast_rect.second.y)},
          {"hub_noc_x", u(cm.hub.x)},                  {"hub_noc_y", u(cm.hub.y)},
          {"hub1_noc_x", u(hub1.x)},                   {"hub1_noc_y", u(hub1.y)}};
}

std::string_view protocol_name(Protocol protocol) { return protocol == Protocol::seed ? "seed" : "onehub"; }

Protocol parse_protocol(std::string_view name) {
  if (name == "seed") return Protocol::seed;
  if (name == "onehub") return Protocol::onehub;
  fail("--protocol: unknown protocol '{}' (known: seed, onehub)", name);
}

Kernel parse_kernel(std::string_view name) {
  if (name == "k1") return Kernel::k1;
  if (name == "k4") return Kernel::k4;
  fail("kernel '{}' is not one of k1, k4", name);
}

namespace {

std::string group_name(const std::vector<RoleFlag>& flags, const std::vector<int>& bits) {
  for (size_t i = 0; i < flags.size(); ++i) {
    if (!bits[i]) continue;
    if (flags[i].name == "is_reader") return "reader";
    if (flags[i].name == "is_hub") return "hub";
    if (flags[i].name == "is_compute") return "compute";
    return flags[i].name;
  }
  return "spare";
}

std::vector<int> flag_bits(const ProgramSpec& spec, Core core) {
  std::vector<int> bits;
  for (const RoleFlag& f : spec.role_flags) {
    const std::vector<Core> cores = spec.core_map.cores_of(f.core_set);
    bits.push_back(std::find(cores.begin(), cores.end(), core) != cores.end() ? 1 : 0);
  }
  return bits;
}

}  // namespace

std::vector<KernelGroup> ProgramSpec::kernel_groups() const {
  std::vector<KernelGroup> groups;
  for (Core core : core_map.all_cores()) {
    std::vector<int> bits = flag_bits(*this, core);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const KernelGroup& g) { return g.flags == bits; });
    if (it == groups.end()) {
      groups.push_back({group_name(role_flags, bits), bits, {}});
      it = groups.end() - 1;
    }
    it->cores.push_back(core);
  }
  return groups;
}

std::string ProgramSpec::group_of(Core core) const { return group_name(role_flags, flag_bits(*this, core)); }

DescriptorStats ProgramSpec::stats() const {
  auto l1 = [&](const char* role) {
    auto it = l1_bytes.find(role);
    return it == l1_bytes.end() ? 0u : it->second;
  };
  DescriptorStats s;
  s.n_cbs = int(cbs.size());
  s.n_common_rt_args = int(common_rt_args.size());
  s.n_kernel_groups = int(kernel_groups().size());
  s.l1_bytes_compute = l1("compute");
  s.l1_bytes_reader = l1("reader");
  s.l1_bytes_hub = l1("hub");
  s.n_named_ctas = int(named_ctas.size());
  s.n_semaphores = int(semaphores.size());
  s.n_io_tensors = int(io.size());
  s.n_per_core_rt_args = per_core_rt_args.empty() ? 0 : int(per_core_rt_args.begin()->second.size());
  return s;
}

std::vector<std::string> ProgramSpec::io_order() const {
  std::vector<std::string> names;
  for (const IoSlot& s : io) names.push_back(s.name);
  return names;
}

uint32_t ProgramSpec::cta(std::string_view name) const {
  for (const NamedArg& a : named_ctas) {
    if (a.name == name) return a.value;
  }
  fail("program has no named compile-time arg '{}'", name);
}

const CBSpec& ProgramSpec::cb(std::string_view name) const {
  for (const CBSpec& c : cbs) {
    if (c.name == name) return c;
  }
  fail("program has no CB named '{}'", name);
}

}  // namespace ditmk::tt
