// Copies a DRAM tensor's pages twice, to a DRAM tensor and to an L1-sharded one, through every kind
// of NoC endpoint: even pages via a DataflowBuffer (TensorAccessor source; PrecomposedUnicastEndpoint
// and TensorAccessor-of-a-sharded-tensor destinations), odd pages via a CircularBuffer
// (PageView source into use<WRITE_PTR>(cb); AllocatorBank<DRAM> and ShardView destinations from a
// CoreLocalMem source). It checks the CB's interface against the DataflowBuffer's sizes on the way.
//
// Compile-time args: the TensorAccessorArgs of src, dst and the sharded copy. Runtime args: the three
// addresses, the page count, the pages per shard (arg 4 read through experimental::RtaArg).
#include "api/core_local_mem.h"
#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"
#include "experimental/kernel_args.h"

void kernel_main() {
  const uint32_t src_addr = get_arg_val<uint32_t>(0);
  const uint32_t dst_addr = get_arg_val<uint32_t>(1);
  const uint32_t shard_addr = get_arg_val<uint32_t>(2);
  const uint32_t pages = get_arg_val<uint32_t>(3);
  const uint32_t pages_per_shard = experimental::get_arg(experimental::RtaArg<uint32_t>{4 * sizeof(uint32_t)});

  constexpr auto src_args = TensorAccessorArgs<0>();
  constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
  constexpr auto shard_args = TensorAccessorArgs<dst_args.next_compile_time_args_offset()>();
  static_assert(src_args.is_dram && !src_args.is_sharded && shard_args.is_sharded && !shard_args.is_dram);
  const auto src = TensorAccessor(src_args, src_addr);
  const auto dst = TensorAccessor(dst_args, dst_addr);
  const auto shard = TensorAccessor(shard_args, shard_addr);

  Noc noc;
  DataflowBuffer dfb(0);
  CircularBuffer cb(0);
  const uint32_t page = dfb.get_entry_size();
  const LocalCBInterface cb_interface = get_local_cb_interface(0);
  ASSERT(page == cb_interface.fifo_page_size && page == src.get_aligned_page_size());
  ASSERT(dfb.get_total_num_entries() == cb_interface.fifo_num_pages && dfb.get_total_size_bytes() == cb_interface.fifo_size);
  ASSERT(dfb.get_id() == cb.get_cb_id() && cb_interface.fifo_wr_ptr == cb.get_write_ptr());

  for (uint32_t i = 0; i < pages; ++i) {
    if (i % 2 == 0) {
      dfb.reserve_back(1);
      noc.async_read(src, dfb, page, {.page_id = i}, {.offset_bytes = 0});
      noc.async_read_barrier();
      dfb.push_back(1);
      dfb.wait_front(1);
      noc.async_write(dfb, PrecomposedUnicastEndpoint{}, page, {}, {.noc_addr = dst.get_noc_addr(i)});
      noc.async_write(dfb, shard, page, {}, {.page_id = i});
      noc.async_write_barrier();
      dfb.pop_front(1);
    } else {
      cb.reserve_back(1);
      noc.async_read(PageView(src), use<CircularBuffer::AddrSelector::WRITE_PTR>(cb), page, {.page_id = i}, {});
      noc.async_read_barrier();
      cb.push_back(1);
      cb.wait_front(1);
      noc.async_write(cb, AllocatorBank<AllocatorBankType::DRAM>{}, page, {},
                      {.bank_id = i % NUM_DRAM_BANKS, .addr = dst_addr + (i / NUM_DRAM_BANKS) * dst.get_aligned_page_size()});
      noc.async_write(CoreLocalMem<uint32_t>(cb.get_read_ptr()), ShardView(shard), page, {},
                      {.shard_id = i / pages_per_shard, .offset_bytes = (i % pages_per_shard) * page});
      noc.async_writes_flushed();
      cb.pop_front(1);
    }
  }
  noc.async_write_barrier();
}
