// Compile check of the dialect's data-movement API, writer side (BRISC, NoC 1): output tiles to
// DRAM through InterleavedAddrGen, a multicast of one tile to a rectangle of cores, and the
// semaphore handshake around it. Compile-time args: [0] the output CB, [1] the tensor accessor word
// of the output. Runtime args: the output's DRAM address, the tile count, the receiver rectangle
// (x0, y0, x1, y1) and the number of receivers.
#include <stdint.h>

#include "dataflow_api.h"

void kernel_main() {
  const uint32_t dst_addr = get_arg_val<uint32_t>(0);
  const uint32_t num_tiles = get_arg_val<uint32_t>(1);
  const uint32_t x0 = get_arg_val<uint32_t>(2);
  const uint32_t y0 = get_arg_val<uint32_t>(3);
  const uint32_t x1 = get_arg_val<uint32_t>(4);
  const uint32_t y1 = get_arg_val<uint32_t>(5);
  const uint32_t receivers = get_arg_val<uint32_t>(6);

  constexpr uint32_t cb_out = get_compile_time_arg_val(0);
  constexpr auto dst_args = TensorAccessorArgs<1>();
  static_assert(dst_args.next_compile_time_args_offset() == 2, "one word per tensor accessor");
  const uint32_t tile_bytes = get_tile_size(cb_out);
  const InterleavedAddrGen<true> dst = {.bank_base_address = dst_addr, .page_size = tile_bytes};
  const auto dst_accessor = TensorAccessor(dst_args, dst_addr, tile_bytes);

  for (uint32_t i = 0; i < num_tiles; ++i) {
    cb_wait_front(cb_out, 1);
    const uint32_t l1 = get_read_ptr(cb_out);
    if (i == 0) {
      // The first tile also goes to every receiver, then the receivers are released. On NoC 1 the
      // rectangle runs from its end corner.
      const uint64_t mcast = noc_index == 0 ? get_noc_multicast_addr(x0, y0, x1, y1, l1)
                                            : get_noc_multicast_addr(x1, y1, x0, y0, l1);
      noc_async_write_multicast(l1, mcast, tile_bytes, receivers);
      noc_async_write_barrier();
      const uint32_t sem_addr = get_semaphore(0);
      volatile tt_l1_ptr uint32_t* sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem_addr);
      noc_semaphore_set(sem, 1);
      const uint64_t sem_mcast = noc_index == 0 ? get_noc_multicast_addr(x0, y0, x1, y1, sem_addr)
                                                : get_noc_multicast_addr(x1, y1, x0, y0, sem_addr);
      noc_semaphore_set_multicast(sem_addr, sem_mcast, receivers);
      noc_semaphore_wait_min(sem, 1 + receivers);
    }
    if (i % 2 == 0) {
      noc_async_write_tile(i, dst, l1);
    } else {
      noc_async_write_page(i, dst_accessor, l1);
    }
    noc_async_writes_flushed();
    cb_pop_front(cb_out, 1);
  }
  noc_async_write_barrier();
  DPRINT_DATA1(DPRINT << "writer wrote " << num_tiles << " tiles" << ENDL());
}
