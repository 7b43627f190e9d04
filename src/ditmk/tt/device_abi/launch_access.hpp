#pragma once
// What the dialect's device ABI reads of the running launch beyond the emulator's device API: the
// running processor's dialect state, its args as arrays, its core's CBs, the front tiles of a CB
// and the DST tiles. Valid only inside a kernel running on the emulated chip.
#include <cstdint>
#include <string_view>
#include <vector>

#include "ditmk/tt/emu/launch_state.hpp"

namespace ditmk::tt::dialect {

emu::ProcessorRuntime::DialectState& dialect_state();

// The running kernel's runtime args on this core, and its common runtime args.
const std::vector<uint32_t>& core_args();
const std::vector<uint32_t>& common_args();

// CB `id` of the running core; a bad_call fault names `call` when the core has none.
emu::CbRuntime& running_cb(uint32_t id, std::string_view call);

// Tile `tile` counted from CB `id`'s front, row-major fp32, after the checks the emulator's unpacker
// makes (one tile per page, the tile filled and written, the window inside the CB).
void read_front_tile(uint32_t id, uint32_t tile, float* out, std::string_view call);

// DST tile `dst` of the running processor, row-major fp32; the index must already be checked.
float* dst_tile(uint32_t dst);

}  // namespace ditmk::tt::dialect
