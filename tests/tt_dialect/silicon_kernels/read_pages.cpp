// Reads `tiles` DRAM pages (arg 0: buffer, arg 1: tiles) into CB 0, one page at a time.
#include <stdint.h>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
  const uint32_t src = get_arg_val<uint32_t>(0);
  const uint32_t tiles = get_arg_val<uint32_t>(1);
  constexpr uint32_t cb_in = tt::CBIndex::c_0;
  const InterleavedAddrGen<true> pages = {.bank_base_address = src, .page_size = get_tile_size(cb_in)};
  for (uint32_t i = 0; i < tiles; ++i) {
    cb_reserve_back(cb_in, 1);
    noc_async_read(pages.get_noc_addr(i), get_write_ptr(cb_in), get_tile_size(cb_in));
    noc_async_read_barrier();
    cb_push_back(cb_in, 1);
  }
}
