#pragma once
// The LLK's ckernel.h, the part kernels call: the blocking load (a load the RISC waits for, which
// orders the stores before it; the emulator's memory is the host's, so a plain volatile load) and
// the mailboxes between a core's BRISC and its TRISCs (matmul readers pass a per-batch "valid" flag
// to the compute kernel this way). The emulator runs the three TRISCs as one compute processor and
// has no mailboxes, so a mailbox call faults, naming it.
#include <stdint.h>

#include "ckernel_defs.h"
#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "internal/tt-1xx/cache.h"  // the chip's ckernel.h gets invalidate_l1_cache through risc_common.h

namespace ckernel {

template <typename T>
FORCE_INLINE T load_blocking(volatile T* ptr) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "load_blocking: operand must be 16-bit or 32-bit");
  return *ptr;
}

FORCE_INLINE void mailbox_write(const uint8_t thread, const uint32_t data) {
  (void)data;
  ditmk::detail::fault(DITMK_FAULT_BAD_CALL, ditmk::detail::Message()
                                                 << "ckernel::mailbox_write(thread " << uint32_t(thread)
                                                 << "): the BRISC-to-TRISC mailboxes are not modelled");
}

[[nodiscard]] FORCE_INLINE uint32_t mailbox_read(const uint8_t thread) {
  ditmk::detail::fault(DITMK_FAULT_BAD_CALL, ditmk::detail::Message()
                                                 << "ckernel::mailbox_read(thread " << uint32_t(thread)
                                                 << "): the BRISC-to-TRISC mailboxes are not modelled");
}

}  // namespace ckernel
