// Writes tiles [0, tiles) of CB 16 to an interleaved tensor (args: its address, tiles; compile-time
// args: its TensorAccessorArgs).
#include <stdint.h>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
  const uint32_t address = get_arg_val<uint32_t>(0);
  const uint32_t tiles = get_arg_val<uint32_t>(1);
  constexpr uint32_t cb_out = tt::CBIndex::c_16;
  constexpr auto args = TensorAccessorArgs<0>();
  const auto out = TensorAccessor(args, address);
  for (uint32_t i = 0; i < tiles; ++i) {
    cb_wait_front(cb_out, 1);
    noc_async_write_tile(i, out, get_read_ptr(cb_out));
    noc_async_write_barrier();
    cb_pop_front(cb_out, 1);
  }
}
