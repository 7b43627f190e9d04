#pragma once
// Builds the K1 or K4 ProgramSpec of an ArenaLayout on a CoreMap and runs every check on it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "ditmk/tt/plan/arena_layout.hpp"
#include "ditmk/tt/plan/core_map.hpp"
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt {

struct ProgramOptions {
  Kernel kernel = Kernel::k4;
  Protocol protocol = Protocol::seed;  // K4 only
  int step_index = 0;
  // A dry run plans without device buffers (every address 0); otherwise each required io slot
  // must have an address in `io`.
  bool dry_run = true;
  std::map<std::string, uint64_t> io;  // io slot -> DRAM buffer address
  std::optional<int> cb_w_slots;        // weight-ring depth in K-blocks (default_cb_w_slots)
  std::string kernel_source = "src/ditmk/tt/kernel/dit_kernel.cpp";
};

// Throws ditmk::Error with one line naming the limit and the numbers when a check fails.
ProgramSpec build_program_spec(const CoreMap& core_map, const ArenaLayout& layout, const ProgramOptions& options);

// Places every CB in L1 as tt-metal places a ProgramDescriptor's (and dialect::l1_layout reads
// one): a tensor-backed CB at its L1-sharded tensor, the shards downwards from the top of L1 in spec
// order, each at the highest 32 B aligned offset below the shards already on the kernel groups it
// spans; the other CBs upwards from kL1CbBase, CBs on the whole grid first, then the others in spec
// order, each at the lowest aligned offset above the CBs already on the groups it spans. A CB (or
// shard) has one address on every core it is on, as the multicast targets need. Fills
// spec.cb_l1_address and spec.l1_bytes (the bytes of every CB on the group, shards included).
void place_cbs(ProgramSpec& spec);

// The order place_cbs places the CBs in, which a ProgramDescriptor lists them in so that tt-metal's
// placement gives the same addresses: the tensor-backed ones, then those on the whole grid, then
// the rest, each part in spec order.
std::vector<const CBSpec*> cb_placement_order(const ProgramSpec& spec);

}  // namespace ditmk::tt
