// Walks every shard of an L1-sharded tensor whose last shard is partial with shard_pages(), copying
// the pages to two DRAM tensors by their page ids: to dst one page at a time (++it, each page read
// from *it), to dst2 a block of `block` pages at a time (it += block, one read of the block from the
// block's first page). Checks that the walk yields exactly the tensor's pages, in order.
//
// Compile-time args: the TensorAccessorArgs of the sharded tensor, dst and dst2. Runtime args: the
// three addresses, the shard count, the tensor's page count, the block length in pages.
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
  constexpr auto shard_args = TensorAccessorArgs<0>();
  constexpr auto dst_args = TensorAccessorArgs<shard_args.next_compile_time_args_offset()>();
  constexpr auto dst2_args = TensorAccessorArgs<dst_args.next_compile_time_args_offset()>();
  const auto sharded = TensorAccessor(shard_args, get_arg_val<uint32_t>(0));
  const auto dst = TensorAccessor(dst_args, get_arg_val<uint32_t>(1));
  const auto dst2 = TensorAccessor(dst2_args, get_arg_val<uint32_t>(2));
  const uint32_t shards = get_arg_val<uint32_t>(3);
  const uint32_t pages = get_arg_val<uint32_t>(4);
  const uint32_t block = get_arg_val<uint32_t>(5);

  Noc noc;
  DataflowBuffer dfb(0);
  const uint32_t page = dfb.get_entry_size();
  uint32_t seen = 0;
  for (uint32_t s = 0; s < shards; ++s) {
    auto shard_pages = sharded.shard_pages(s);
    for (auto it = shard_pages.begin(); it != shard_pages.end(); ++it) {
      ASSERT(it->page_id() == seen && it->shard_id() == s);
      dfb.reserve_back(1);
      noc.async_read(*it, dfb, page, {.offset_bytes = 0}, {.offset_bytes = 0});
      noc.async_read_barrier();
      dfb.push_back(1);
      dfb.wait_front(1);
      noc.async_write(dfb, dst, page, {}, {.page_id = it->page_id()});
      noc.async_write_barrier();
      dfb.pop_front(1);
      ++seen;
    }
    for (auto it = shard_pages.begin(); it != shard_pages.end(); it += block) {
      dfb.reserve_back(block);
      noc.async_read(*it, dfb, block * page, {.offset_bytes = 0}, {.offset_bytes = 0});
      noc.async_read_barrier();
      dfb.push_back(block);
      dfb.wait_front(block);
      for (uint32_t k = 0; k < block; ++k) {
        noc.async_write(dfb, dst2, page, {.offset_bytes = k * page}, {.page_id = it->page_id() + k});
      }
      noc.async_write_barrier();
      dfb.pop_front(block);
    }
  }
  ASSERT(seen == pages);
}
