#pragma once
// The emulator's side of the C ABI compiled dialect kernels call through
// (include/ditmk_device_abi.h): a table of functions that forward to the emulator's device API
// (tt/emu/dataflow_api.hpp, compute_api.hpp, profiler_api.hpp), converting the kernel's L1 window
// addresses to L1 offsets and back, and checking what tt-metal leaves to the hardware (a compute op
// without its init, a DST protocol mixed up, ...). The kernel runner passes &device_abi() to each
// kernel's ditmk_kernel_entry.
#include <functional>
#include <string_view>

#include "ditmk/tt/hw/inc/ditmk_device_abi.h"

namespace ditmk::tt::dialect {

const ditmk_device_abi& device_abi();

// Where finished DPRINT lines go: `where` names the kernel, core and processor ("kernel
// kernels/reader.cpp on core (0,0) NCRISC"). By default each line is written to stderr as
// "DPRINT <where>: <line>"; an empty sink restores that.
using DprintSink = std::function<void(std::string_view where, std::string_view line)>;
void set_dprint_sink(DprintSink sink);

}  // namespace ditmk::tt::dialect
