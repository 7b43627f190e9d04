#pragma once
// The megakernel's plan as the ProgramDescriptor a tt-metal host hands to ttnn.generic_op: the
// unified kernel as a reader (NCRISC, NoC 0), a writer (BRISC, NoC 1) and a compute kernel on each
// kernel group (the cores sharing one set of role flags), each with the plan's named compile-time
// args, the NoC coordinates of the multicast rectangle and the hubs, its role flags, the common
// runtime args (the io addresses as address_of their tensors) and its cores' runtime args; the CBs
// in the order tt-metal places them to give the plan's L1 addresses (the tensor-backed ones, then
// those on the whole grid, then the rest); the semaphores on every core; the io tensors the
// program reads and writes (io_tensors.hpp). The emulated chip's NoC coordinates are the logical
// ones; a chip host translates them (worker_core_from_logical_core).
#include <filesystem>
#include <string>

#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt::dialect {

// `kernel_source` is written into each kernel as given and resolved against `folder` (where the
// descriptor is to lie) for source_path.
ProgramDescriptor plan_descriptor(const ProgramSpec& spec, const std::string& kernel_source,
                                  const std::filesystem::path& folder);

DataFormat data_format_of(TileFormat format);

// The megakernel's kernel source in tt-metal's dialect, and the folder of it and its headers:
// $DITMK_MEGAKERNEL_DIR, else an installed ditmk's share/megakernel, else the sources the build was
// made from.
inline constexpr char kMegakernelSource[] = "dit_kernel.cpp";
std::filesystem::path megakernel_dir();

}  // namespace ditmk::tt::dialect
