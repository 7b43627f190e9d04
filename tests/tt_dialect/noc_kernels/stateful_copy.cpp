// Copies a DRAM tensor of 16 pages bank by bank (pages b and b + 8 lie in bank b) with the stateful
// calls: the state names bank b's endpoint once, each transfer the address within it. Even banks use
// the free calls (one-packet read state, with_state_with_trid, one-packet write state), odd banks
// Noc's set_async_*_state / async_*_with_state.
//
// Compile-time args: the TensorAccessorArgs of src and dst. Runtime args: their addresses.
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
  constexpr auto src_args = TensorAccessorArgs<0>();
  constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
  const auto src = TensorAccessor(src_args, get_arg_val<uint32_t>(0));
  const auto dst = TensorAccessor(dst_args, get_arg_val<uint32_t>(1));
  DataflowBuffer dfb(0);
  const uint32_t page = dfb.get_entry_size();
  Noc noc;

  for (uint32_t bank = 0; bank < NUM_DRAM_BANKS; ++bank) {
    dfb.reserve_back(2);
    const uint32_t l1 = dfb.get_write_ptr();
    const uint32_t pages[2] = {bank, bank + NUM_DRAM_BANKS};
    if (bank % 2 == 0) {
      noc_async_read_one_packet_set_state(src.get_noc_addr(bank), page);
      noc_async_read_set_trid(1);
      noc_async_read_one_packet_with_state(uint32_t(src.get_noc_addr(pages[0])), l1);
      noc_async_read_one_packet_with_state_with_trid(0, uint32_t(src.get_noc_addr(pages[1])), l1 + page, 1);
      noc_async_read_barrier_with_trid(1);
    } else {
      noc.set_async_read_state<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE>(src, page, {.page_id = bank});
      for (uint32_t i = 0; i < 2; ++i) {
        noc.async_read_with_state<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE>(src, dfb, page, {.page_id = pages[i]},
                                                                           {.offset_bytes = i * page});
      }
      noc.async_read_barrier();
    }
    dfb.push_back(2);
    dfb.wait_front(2);
    const uint32_t out = dfb.get_read_ptr();
    if (bank % 2 == 0) {
      noc_async_write_one_packet_set_state(dst.get_noc_addr(bank), page);
      noc_async_write_one_packet_with_state(out, uint32_t(dst.get_noc_addr(pages[0])));
      noc_async_write_one_packet_with_trid(out + page, dst.get_noc_addr(pages[1]), page, 2);
      noc_async_write_barrier_with_trid(2);
    } else {
      noc.set_async_write_state(dst, page, {.page_id = bank});
      for (uint32_t i = 0; i < 2; ++i) {
        noc.async_write_with_state(dfb, PrecomposedUnicastEndpoint{}, page, {.offset_bytes = i * page},
                                   {.noc_addr = dst.get_noc_addr(pages[i])});
      }
      noc.async_write_barrier();
    }
    dfb.pop_front(2);
  }
}
