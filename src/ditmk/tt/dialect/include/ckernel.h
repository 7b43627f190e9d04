#pragma once
// The LLK's ckernel.h, the part kernels call: the mailboxes between a core's BRISC and its TRISCs
// (matmul readers pass a per-batch "valid" flag to the compute kernel this way). The emulator runs
// the three TRISCs as one compute processor and has no mailboxes, so a call faults, naming it.
#include <stdint.h>

#include "ckernel_defs.h"
#include "ditmk/abi.h"
#include "ditmk/attributes.h"

namespace ckernel {

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
