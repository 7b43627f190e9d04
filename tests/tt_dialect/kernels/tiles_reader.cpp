// Test reader of tiles (NCRISC): tile after tile of an interleaved tile-layout tensor into the CB.
// Compile-time args: [0] the CB, [1] the tensor accessor word. Runtime args: the DRAM address, the
// number of tiles.
#include <stdint.h>

void kernel_main() {
  const uint32_t address = get_arg_val<uint32_t>(0);
  const uint32_t tiles = get_arg_val<uint32_t>(1);
  constexpr uint32_t cb = get_compile_time_arg_val(0);
  constexpr auto args = TensorAccessorArgs<1>();
  const auto src = TensorAccessor(args, address, get_tile_size(cb));
  for (uint32_t t = 0; t < tiles; ++t) {
    cb_reserve_back(cb, 1);
    noc_async_read_tile(t, src, get_write_ptr(cb));
    noc_async_read_barrier();
    cb_push_back(cb, 1);
  }
}
