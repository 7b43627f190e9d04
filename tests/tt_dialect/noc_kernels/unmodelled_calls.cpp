// Calls the emulator does not model, one per define: each must fault with one line naming it.
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"

void kernel_main() {
  Noc noc;
  DataflowBuffer dfb(0);
#if defined(INLINE_DW_WRITE)
  noc.inline_dw_write(UnicastEndpoint{}, 1, {.noc_x = 0, .noc_y = 0, .addr = dfb.get_write_ptr()});
#elif defined(READ_WITH_STATE_FIRST)
  noc.async_read_with_state(UnicastEndpoint{}, dfb, 16, {.noc_x = 0, .noc_y = 0, .addr = dfb.get_read_ptr()}, {});
#elif defined(WRITE_ZEROS_DRAM_BARRIER)
  noc.write_zeros_dram_barrier();
#endif
}
