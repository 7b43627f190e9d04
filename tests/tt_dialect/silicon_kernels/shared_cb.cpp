// One CB under two buffer indices (tt-metal's shared CB): a page filled through c_16 is read back
// through c_24 and written to DRAM (arg 0), which shows the two indices see the same L1.
#include <stdint.h>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
  const uint32_t dst = get_arg_val<uint32_t>(0);
  constexpr uint32_t cb_a = tt::CBIndex::c_16;
  constexpr uint32_t cb_b = tt::CBIndex::c_24;
  const uint32_t page = get_tile_size(cb_a);
  cb_reserve_back(cb_a, 1);
  volatile tt_l1_ptr uint32_t* words = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb_a));
  for (uint32_t i = 0; i < page / 4; ++i) words[i] = 0x5eed0000 + i;
  cb_push_back(cb_a, 1);
  cb_wait_front(cb_a, 1);
  cb_pop_front(cb_a, 1);
  // c_24's pointers start at the CB's base, where c_16's first page lies
  cb_wait_front(cb_b, 0);
  const InterleavedAddrGen<true> pages = {.bank_base_address = dst, .page_size = page};
  noc_async_write(get_read_ptr(cb_b), pages.get_noc_addr(0), page);
  noc_async_write_barrier();
}
