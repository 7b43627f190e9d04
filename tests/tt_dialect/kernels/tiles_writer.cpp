// Test writer of tiles (BRISC): tile after tile from the CB to an interleaved tile-layout tensor.
// Compile-time args: [0] the CB, [1] the tensor accessor word. Runtime args: the DRAM address, the
// number of tiles.
#include <stdint.h>

void kernel_main() {
  const uint32_t address = get_arg_val<uint32_t>(0);
  const uint32_t tiles = get_arg_val<uint32_t>(1);
  constexpr uint32_t cb = get_compile_time_arg_val(0);
  constexpr auto args = TensorAccessorArgs<1>();
  const auto dst = TensorAccessor(args, address, get_tile_size(cb));
  for (uint32_t t = 0; t < tiles; ++t) {
    cb_wait_front(cb, 1);
    noc_async_write_tile(t, dst, get_read_ptr(cb));
    noc_async_write_barrier();
    cb_pop_front(cb, 1);
  }
}
