// Gathers an L1-sharded tensor into an interleaved DRAM tensor through CB 0: the shard of core
// (x_s, y_s) lies at the tensor's address there (args: shard address, destination address, pages per
// shard, shard count, then x and y of each shard's core, in shard order).
#include <stdint.h>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
  const uint32_t shard_address = get_arg_val<uint32_t>(0);
  const uint32_t dst_address = get_arg_val<uint32_t>(1);
  const uint32_t pages_per_shard = get_arg_val<uint32_t>(2);
  const uint32_t shards = get_arg_val<uint32_t>(3);
  constexpr uint32_t cb = tt::CBIndex::c_0;
  const uint32_t page_size = get_tile_size(cb);
  const InterleavedAddrGen<true> dst = {.bank_base_address = dst_address, .page_size = page_size};
  for (uint32_t s = 0; s < shards; ++s) {
    const uint32_t x = get_arg_val<uint32_t>(4 + 2 * s), y = get_arg_val<uint32_t>(5 + 2 * s);
    for (uint32_t p = 0; p < pages_per_shard; ++p) {
      cb_reserve_back(cb, 1);
      noc_async_read(get_noc_addr(x, y, shard_address + p * page_size), get_write_ptr(cb), page_size);
      noc_async_read_barrier();
      cb_push_back(cb, 1);
      cb_wait_front(cb, 1);
      noc_async_write_page(s * pages_per_shard + p, dst, get_read_ptr(cb));
      noc_async_write_barrier();
      cb_pop_front(cb, 1);
    }
  }
}
