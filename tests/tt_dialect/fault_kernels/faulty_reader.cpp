// One reader, eight mistakes: FAULT picks which one the launch must catch.
#include <cstdint>

void kernel_main() {
  const uint32_t dram = get_arg_val<uint32_t>(0);
  constexpr uint32_t cb = tt::CBIndex::c_0;
  const InterleavedAddrGen<true> pages = {.bank_base_address = dram, .page_size = 2048};
#if FAULT == 1
  // More pages than the CB holds.
  cb_reserve_back(cb, 4);
#elif FAULT == 2
  // A DRAM page the host never wrote (arg 1: a buffer the test leaves empty).
  const InterleavedAddrGen<true> empty = {.bank_base_address = get_arg_val<uint32_t>(1), .page_size = 2048};
  cb_reserve_back(cb, 1);
  noc_async_read(empty.get_noc_addr(3), get_write_ptr(cb), 2048);
  noc_async_read_barrier();
#elif FAULT == 3
  // A wait nothing releases: no kernel produces into the CB.
  cb_wait_front(cb, 1);
#elif FAULT == 4
  // A NoC address past the buffer's pages.
  cb_reserve_back(cb, 1);
  noc_async_read(pages.get_noc_addr(100), get_write_ptr(cb), 2048);
  noc_async_read_barrier();
#elif FAULT == 5
  // L1 outside the kernel's CBs and semaphores.
  noc_async_read(pages.get_noc_addr(0), 0x1000, 2048);
  noc_async_read_barrier();
#elif FAULT == 6
  // A store through a wild pointer, after one API call (the fault names it).
  cb_reserve_back(cb, 1);
  *reinterpret_cast<volatile uint32_t*>(uintptr_t{0xdead0000}) = dram;
#elif FAULT == 7
  // A spin that never calls the API: only the watchdog ends it.
  cb_reserve_back(cb, 1);
  for (volatile uint32_t spin = 0;; spin = spin + 1) {
  }
#elif FAULT == 8
  // An integer division by zero (arg 2 is 0; read at run time, so the compiler cannot fold it).
  const uint32_t zero = get_arg_val<uint32_t>(2);
  *reinterpret_cast<volatile uint32_t*>(get_write_ptr(cb)) = dram / zero;
#else
  // No mistake: page 0 through the CB and back to page 1.
  cb_reserve_back(cb, 1);
  noc_async_read(pages.get_noc_addr(0), get_write_ptr(cb), 2048);
  noc_async_read_barrier();
  cb_push_back(cb, 1);
  cb_wait_front(cb, 1);
  noc_async_write(get_read_ptr(cb), pages.get_noc_addr(1), 2048);
  noc_async_write_barrier();
  cb_pop_front(cb, 1);
#endif
}
