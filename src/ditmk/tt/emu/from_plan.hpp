#pragma once
// The emulator's Program from the plan's ProgramSpec (ditmk/tt/plan): CBs at the L1 addresses the
// plan placed them on each kernel group, the seed's semaphores, named compile-time args (with the
// NoC coordinates a device loader resolves), role flags, common and per-core runtime args; the
// kernel is the caller's.
#include "ditmk/tt/emu/program.hpp"
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt::emu {

// The plan gives semaphores ids but no addresses: on the chip they sit in the kernel-config area
// below the CBs, so the adapter puts semaphore id i at kSemaphoreBase + 16 * i, under kL1CbBase.
uint32_t plan_semaphore_address(uint32_t id);

// Throws ditmk::Error naming the CB, core set or flag the spec leaves without a placement.
Program program_from_plan(const ProgramSpec& spec, Kernel kernel);

}  // namespace ditmk::tt::emu
