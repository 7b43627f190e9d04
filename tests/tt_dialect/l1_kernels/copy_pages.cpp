// Copies pages [first, first + pages) of one interleaved tensor to pages [0, pages) of another
// through CB 0 (args: source address, destination address, pages, first). Both are reached through
// TensorAccessor (compile-time args: the source's TensorAccessorArgs, then the destination's), so
// either may lie in DRAM or in L1; with L1_ADDRGEN the source is an L1-interleaved tensor read through
// InterleavedAddrGen<false>, with L1_BANK_ID through get_noc_addr_from_bank_id<false> (with
// L1_BANK_PAST_END from the bank after the last), and the destination an InterleavedAddrGenFast<true>
// of the CB's format.
#include <stdint.h>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
  const uint32_t src_address = get_arg_val<uint32_t>(0);
  const uint32_t dst_address = get_arg_val<uint32_t>(1);
  const uint32_t pages = get_arg_val<uint32_t>(2);
  const uint32_t first = get_arg_val<uint32_t>(3);
  constexpr uint32_t cb = tt::CBIndex::c_0;
  const uint32_t page_size = get_tile_size(cb);
  constexpr auto src_args = TensorAccessorArgs<0>();
  constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
#if defined(L1_ADDRGEN) || defined(L1_BANK_ID) || defined(L1_BANK_PAST_END)
  const InterleavedAddrGen<false> src = {.bank_base_address = src_address, .page_size = page_size};
  const InterleavedAddrGenFast<true> dst = {
      .bank_base_address = dst_address, .page_size = page_size, .data_format = get_dataformat(cb)};
  (void)dst_args;
#else
  const auto src = TensorAccessor(src_args, src_address);
  const auto dst = TensorAccessor(dst_args, dst_address);
#endif
  for (uint32_t i = 0; i < pages; ++i) {
    cb_reserve_back(cb, 1);
#ifdef L1_BANK_ID
    // what InterleavedAddrGen<false> computes, by hand: bank p % NUM_L1_BANKS, row p / NUM_L1_BANKS
    const uint32_t page = first + i;
    const uint64_t from = get_noc_addr_from_bank_id<false>(
        page % NUM_L1_BANKS, src_address + page / NUM_L1_BANKS * src.aligned_page_size);
    noc_async_read(from, get_write_ptr(cb), page_size);
#elif defined(L1_BANK_PAST_END)
    noc_async_read(get_noc_addr_from_bank_id<false>(NUM_L1_BANKS, src_address), get_write_ptr(cb), page_size);
#else
    noc_async_read_page(first + i, src, get_write_ptr(cb));
#endif
    noc_async_read_barrier();
    cb_push_back(cb, 1);
    cb_wait_front(cb, 1);
    noc_async_write_page(i, dst, get_read_ptr(cb), page_size);
    noc_async_write_barrier();
    cb_pop_front(cb, 1);
  }
}
