#pragma once
// L1 as a compiled kernel sees it. A tt-metal kernel turns L1 addresses into pointers
// (`reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb))`) and stores through them. The
// emulator therefore maps the running core's L1 at a fixed address below 4 GiB (the device's window),
// so that a 32-bit kernel address is also a host pointer into that core's L1. The scheduler remaps
// the window when it switches to a processor of another core; the emulator itself keeps using plain
// L1 offsets (0 .. kL1Bytes).
#include <cstdint>

namespace ditmk::tt::emu {

// The address a kernel dereferences for byte `offset` of the running core's L1.
uint32_t kernel_l1_address(uint32_t offset);
// The L1 offset of an address a kernel passes in: a window address (from get_write_ptr,
// get_semaphore, ...) or a plain offset (a host-computed L1 address in a runtime arg); both are
// accepted, as on a chip they are the same number.
uint32_t l1_offset(uint32_t kernel_address);

}  // namespace ditmk::tt::emu
