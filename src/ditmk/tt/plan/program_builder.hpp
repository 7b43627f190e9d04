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

// Places every CB in L1 upwards from kL1CbBase: CBs on the whole grid first (one address on every
// core, as the multicast target needs), then the others in spec order, each at the highest top of
// the kernel groups it spans. Fills spec.cb_l1_address and spec.l1_bytes.
void place_cbs(ProgramSpec& spec);

}  // namespace ditmk::tt
