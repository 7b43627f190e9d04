// Reads tiles [0, tiles) of two interleaved tensors, tile i of the first into CB 0 and of the
// second into CB 1, one pair at a time (args: first address, second address, tiles; compile-time
// args: the two tensors' TensorAccessorArgs).
#include <stdint.h>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
  const uint32_t a_address = get_arg_val<uint32_t>(0);
  const uint32_t b_address = get_arg_val<uint32_t>(1);
  const uint32_t tiles = get_arg_val<uint32_t>(2);
  constexpr uint32_t cb_a = tt::CBIndex::c_0;
  constexpr uint32_t cb_b = tt::CBIndex::c_1;
  constexpr auto a_args = TensorAccessorArgs<0>();
  constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
  const auto a = TensorAccessor(a_args, a_address);
  const auto b = TensorAccessor(b_args, b_address);
  for (uint32_t i = 0; i < tiles; ++i) {
    cb_reserve_back(cb_a, 1);
    cb_reserve_back(cb_b, 1);
    noc_async_read_tile(i, a, get_write_ptr(cb_a));
    noc_async_read_tile(i, b, get_write_ptr(cb_b));
    noc_async_read_barrier();
    cb_push_back(cb_a, 1);
    cb_push_back(cb_b, 1);
  }
}
