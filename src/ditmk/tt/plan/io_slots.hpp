#pragma once
// The io tensors of the megakernel, in the order their addresses appear in the common runtime
// args. The output slot is always last: tt-metal's generic_op returns the last io tensor.
#include <vector>

#include "ditmk/tt/plan/arena_layout.hpp"
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt {

// Which cross masks the kernel reads. text / all: per-call masks, present when a block uses the
// set. image: the constant pad-key mask, present only when real image keys != padded keys.
struct MaskPresence {
  bool text = false;
  bool image = false;
  bool all = false;
};
MaskPresence mask_presence(const ArenaLayout& layout);

// The io slots of `kernel` for the layout's variant; the last one is the output.
std::vector<IoSlot> io_slots(Kernel kernel, const ArenaLayout& layout);

}  // namespace ditmk::tt
