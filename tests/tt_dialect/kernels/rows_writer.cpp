// Test writer of row-major data (BRISC): blocks of 32 rows from the CB to an interleaved row-major
// tensor, one row per page, as ttnn's untilize writers drain it. Compile-time args: [0] the CB, [1]
// the tensor accessor word. Runtime args: the DRAM address, the number of blocks, the row's bytes,
// the CB pages one block fills.
#include <stdint.h>

void kernel_main() {
  const uint32_t address = get_arg_val<uint32_t>(0);
  const uint32_t blocks = get_arg_val<uint32_t>(1);
  const uint32_t row_bytes = get_arg_val<uint32_t>(2);
  const uint32_t pages_per_block = get_arg_val<uint32_t>(3);
  constexpr uint32_t cb = get_compile_time_arg_val(0);
  constexpr auto args = TensorAccessorArgs<1>();
  const auto rows = TensorAccessor(args, address, row_bytes);
  for (uint32_t b = 0; b < blocks; ++b) {
    cb_wait_front(cb, pages_per_block);
    const uint32_t l1 = get_read_ptr(cb);
    for (uint32_t r = 0; r < 32; ++r) noc_async_write(l1 + r * row_bytes, get_noc_addr(b * 32 + r, rows), row_bytes);
    noc_async_write_barrier();
    cb_pop_front(cb, pages_per_block);
  }
}
