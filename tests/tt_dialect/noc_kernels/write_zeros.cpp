// Noc::async_write_zeros into local L1: a 64-byte page of all-ones words, 32 bytes from byte 16
// zeroed, then the page written to the uint32 tensor at runtime arg 0 (compile-time args 0..: its
// TensorAccessorArgs).
#include <stdint.h>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/noc.h"

void kernel_main() {
  const Noc noc;
  DataflowBuffer page(0);
  page.reserve_back(1);
  volatile tt_l1_ptr uint32_t* word = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(page.get_write_ptr());
  for (uint32_t i = 0; i < 16; ++i) word[i] = 0xFFFFFFFFu;
  noc.async_write_zeros(page, 32, {.offset_bytes = 16});
  noc.write_zeros_l1_barrier();
  const auto out = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0));
  noc.async_write(page, out, 64, {}, {.page_id = 0});
  noc.async_write_barrier();
}
