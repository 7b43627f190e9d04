// Copies a DRAM tensor's pages into an L1-sharded one through AbstractTensorAccessorWrapper: the two
// accessors (of different types) come from make_tensor_accessor_tuple, are wrapped into one array, and
// the kernel picks source and destination by a runtime index, as ttnn's concat reader picks its input.
// The CB's page size is read the way ttnn's codegen readers read it (fifo_page_size << cb_addr_shift);
// invalidate_l1_cache (ttnn's tt_memmove calls it) and tensix_types.h's DST sizes are there too.
//
// Compile-time args: the TensorAccessorArgs of src then dst. Runtime args: the two addresses, the
// page count.
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"
#include "tensix_types.h"

static_assert(DEST_REGISTER_FULL_SIZE == 1024 && DEST_REGISTER_HALF_SIZE_BYTES == 16 * 1024);

void kernel_main() {
  constexpr auto args = make_tensor_accessor_args_tuple<2, 0>();
  const auto accessor_tuple = make_tensor_accessor_tuple(args, 0);
  const auto accessors = make_abstract_tensor_accessor_wrappers(accessor_tuple);
  const uint32_t pages = get_arg_val<uint32_t>(2);

  Noc noc;
  DataflowBuffer dfb(0);
  const uint32_t page = get_local_cb_interface(0).fifo_page_size << cb_addr_shift;
  ASSERT(page == dfb.get_entry_size());

  for (uint32_t i = 0; i < pages; ++i) {
    const uint32_t from = i % 1;  // a runtime index: 0, the source
    const AbstractTensorAccessorWrapper& to = accessors[from + 1];
    ASSERT(to.get_noc_addr(i) == std::get<1>(accessor_tuple).get_noc_addr(i));
    dfb.reserve_back(1);
    noc.async_read(accessors[from], dfb, page, {.page_id = i}, {.offset_bytes = 0});
    noc.async_read_barrier();
    invalidate_l1_cache();
    dfb.push_back(1);
    dfb.wait_front(1);
    noc.async_write(dfb, to, page, {.offset_bytes = 0}, {.page_id = i});
    noc.async_write_barrier();
    dfb.pop_front(1);
  }
}
