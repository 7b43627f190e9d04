// A Metal 2.0 kernel's named arguments: each kind read through get_arg(args::<name>) (a runtime arg
// of this core, a common runtime arg, a compile-time constant) and the varargs past them, written as
// words 0..5 of one 64-byte row of the uint32 tensor at args::out_address (positional compile-time
// arg 0: its TensorAccessorArgs), through the dataflow buffer bound as dfb::row, whose entry size is
// word 6.
#include <stdint.h>

#include "experimental/kernel_args.h"

void kernel_main() {
  const uint32_t out_address = get_arg(args::out_address);
  constexpr uint32_t block = get_arg(args::block);  // a constant expression, as on tt-metal
  static_assert(block == 7, "the named compile-time arg's value");
  constexpr uint32_t cb = dfb::row;
  DataflowBuffer row_buffer(dfb::row);
  row_buffer.reserve_back(1);
  volatile tt_l1_ptr uint32_t* row = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb));
  row[0] = get_arg(args::rows);
  row[1] = get_arg(args::scale);
  row[2] = block;
  row[3] = get_vararg(0);
  row[4] = get_common_vararg(1);
  row[5] = get_arg(args::start);
  row[6] = row_buffer.get_entry_size();
  for (uint32_t i = 7; i < 16; ++i) row[i] = 0;
  constexpr auto out_args = TensorAccessorArgs<0>();
  const auto out = TensorAccessor(out_args, out_address);
  noc_async_write(get_write_ptr(cb), get_noc_addr(0, out), 64);
  noc_async_write_barrier();
}
