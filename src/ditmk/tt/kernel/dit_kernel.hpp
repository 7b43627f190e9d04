#pragma once
// The DiT megakernel as role programs of one unified source (docs/megakernel.md): the role flags
// and the processor pick what each of the 110 cores runs.
#include "ditmk/tt/emu/program.hpp"

namespace ditmk::tt::kernel {

// Everything it knows comes from its named compile-time args (the plan's), its common and per-core
// runtime args, and the processor it runs on.
emu::Kernel make_dit_kernel();

}  // namespace ditmk::tt::kernel
