#pragma once
// The DiT megakernel as role programs of one unified source (docs/megakernel.md): the role flags
// and the processor pick what each of the 110 cores runs.
#include <memory>

#include "ditmk/tt/emu/program.hpp"
#include "ditmk/tt/kernel/kernel_config.hpp"

namespace ditmk::tt::kernel {

emu::Kernel make_dit_kernel(std::shared_ptr<const KernelConfig> config);

}  // namespace ditmk::tt::kernel
