// A row built through pointers in CB 1, which nobody reserves or pushes (a Metal 2.0 self-loop buffer
// used as plain L1), copied over the NoC from this core into CB 0's reservation, then written out to
// the DRAM buffer at arg 0.
#include <cstdint>

void kernel_main() {
  const uint32_t row = get_write_ptr(1);
  volatile tt_l1_ptr uint32_t* words = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(row);
  for (uint32_t i = 0; i < 16; ++i) words[i] = 0x3F803F80u + i;
  cb_reserve_back(0, 1);
  noc_async_read(get_noc_addr(my_x[0], my_y[0], row), get_write_ptr(0), 64);
  noc_async_read_barrier();
  const InterleavedAddrGen<true> out = {.bank_base_address = get_arg_val<uint32_t>(0), .page_size = 64};
  noc_async_write(get_write_ptr(0), out.get_noc_addr(0), 64);
  noc_async_write_barrier();
  cb_push_back(0, 1);
}
