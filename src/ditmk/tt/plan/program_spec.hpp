#pragma once
// ProgramSpec: the megakernel program as data, everything a device loader (or the chip emulator)
// needs to build tt-metal's ProgramDescriptor: CBs with their L1 addresses, semaphores, named
// compile-time args, common and per-core runtime args, io slots and role flags. Built by
// build_program_spec (program_builder.hpp) and validated by check_program (program_checks.hpp).
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ditmk/tt/formats.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"
#include "ditmk/tt/plan/core_map.hpp"

namespace ditmk::tt {

enum class Kernel { k1, k4 };
std::string_view kernel_name(Kernel kernel);
Kernel parse_kernel(std::string_view name);

// How K4's cores move activations between them (docs/megakernel.md), the named arg k4_onehub:
//   seed    the seed's K4b: two hubs, each multicast split over both NoCs, the FF2 input as a chunk
//           ring over the hubs with lookahead credits, self-attention K / V written straight to the
//           head cores (counted on sem_kv), the Euler state rounded to bf16 per step unless
//           euler_fp32;
//   onehub  the simplified protocol: one hub does every round on one NoC, FF2 in four quarter
//           rounds, K / V through two hub rounds, an fp32 Euler state for every version.
enum class Protocol { seed, onehub };
std::string_view protocol_name(Protocol protocol);
Protocol parse_protocol(std::string_view name);

struct CBSpec {
  std::string name;
  int id = 0;
  std::string role_set;  // a CoreMap::cores_of set
  uint32_t total_bytes = 0;
  uint32_t page_bytes = 0;
  TileFormat format = TileFormat::bf16;
  std::string tensor_backed;  // io slot whose sharded buffer backs the CB, or empty
};

struct SemSpec {
  std::string name;
  int id = 0;
  uint32_t initial_value = 0;
};

struct IoSlot {
  std::string name;
  bool required = false;
  std::string description;
};

struct NamedArg {
  std::string name;
  uint32_t value = 0;
};

// A role flag is a compile-time arg that is 1 on its core set and 0 elsewhere.
struct RoleFlag {
  std::string name;      // is_reader, is_hub, is_compute
  std::string core_set;  // readers, hub (K1) / hubs (K4), compute
};

struct DescriptorStats {
  int n_cbs = 0;
  int n_common_rt_args = 0;
  int n_kernel_groups = 0;
  uint32_t l1_bytes_compute = 0;
  uint32_t l1_bytes_reader = 0;
  uint32_t l1_bytes_hub = 0;
  int n_named_ctas = 0;
  int n_semaphores = 0;
  int n_io_tensors = 0;
  int n_per_core_rt_args = 0;
};

// A kernel group: the cores sharing one role-flag combination, i.e. one binary. Its name is the
// L1 class its CBs are placed for: compute, reader, hub or spare.
struct KernelGroup {
  std::string name;
  std::vector<int> flags;  // one per role flag, in role_flags order
  std::vector<Core> cores;
};

// What a host adds to the named args from the chip: the NoC coordinates of the multicast rectangle
// (mcast_noc_*) and of both hubs (hub_noc_*, hub1_noc_*; hub 1 is hub 0 when the map has no spare).
// These are the emulated chip's, which are its logical ones; a chip host translates them.
std::vector<NamedArg> noc_named_args(const CoreMap& cm);

struct ProgramSpec {
  Kernel kernel = Kernel::k1;
  Variant variant = Variant::steps4;
  std::string kernel_source;
  CoreMap core_map;
  ArenaLayout layout;
  uint32_t l1_budget_compute = 0;  // acceptance budget of the compute cores
  uint32_t l1_limit = 0;           // what every role may use (usable, K4: usable - margin)
  std::vector<NamedArg> named_ctas;
  std::vector<RoleFlag> role_flags;
  std::map<Core, PerCoreArgs> per_core_rt_args;
  std::vector<std::string> common_rt_names;
  std::vector<uint32_t> common_rt_args;
  std::vector<CBSpec> cbs;
  std::vector<SemSpec> semaphores;
  std::vector<IoSlot> io;          // in common-runtime-arg order; the output slot is last
  std::string output_slot;
  std::map<std::string, uint32_t> l1_bytes;  // compute, reader, hub, spare
  // L1 address of each CB on each kernel group it is placed on: group -> CB name -> address.
  std::map<std::string, std::map<std::string, uint32_t>> cb_l1_address;
  std::vector<int> unpack_to_dest_fp32_cbs;  // CB ids copy_tile must land as exact fp32

  std::vector<KernelGroup> kernel_groups() const;
  std::string group_of(Core core) const;  // compute, reader, hub or spare
  DescriptorStats stats() const;
  std::vector<std::string> io_order() const;
  uint32_t cta(std::string_view name) const;  // throws when absent
  const CBSpec& cb(std::string_view name) const;
};

}  // namespace ditmk::tt
