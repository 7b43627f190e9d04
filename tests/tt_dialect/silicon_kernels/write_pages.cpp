// Writes `tiles` pages of CB 16 to DRAM (arg 0: buffer, arg 1: tiles).
#include <stdint.h>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
  const uint32_t dst = get_arg_val<uint32_t>(0);
  const uint32_t tiles = get_arg_val<uint32_t>(1);
  constexpr uint32_t cb_out = tt::CBIndex::c_16;
  const InterleavedAddrGen<true> pages = {.bank_base_address = dst, .page_size = get_tile_size(cb_out)};
  for (uint32_t i = 0; i < tiles; ++i) {
    cb_wait_front(cb_out, 1);
    noc_async_write(get_read_ptr(cb_out), pages.get_noc_addr(i), get_tile_size(cb_out));
    noc_async_write_barrier();
    cb_pop_front(cb_out, 1);
  }
}
