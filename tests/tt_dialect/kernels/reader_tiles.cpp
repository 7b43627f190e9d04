// Compile check of the dialect's data-movement API, reader side (NCRISC, NoC 0). Compile-time args:
// [0] the tensor accessor word of the input, [1] the input CB; named args: tiles_per_core, sem_id.
// Runtime args: the input's DRAM address, the first tile, the sender core's x and y. Common args:
// the scaler tile's DRAM address.
#include <stdint.h>

void kernel_main() {
  const uint32_t src_addr = get_arg_val<uint32_t>(0);
  const uint32_t first_tile = get_arg_val<uint32_t>(1);
  const uint32_t sender_x = get_arg_val<uint32_t>(2);
  const uint32_t sender_y = get_arg_val<uint32_t>(3);
  const uint32_t scaler_addr = get_common_arg_val<uint32_t>(0);

  constexpr auto src_args = TensorAccessorArgs<0>();
  constexpr uint32_t cb_in = get_compile_time_arg_val(src_args.next_compile_time_args_offset());
  constexpr uint32_t cb_scaler = tt::CBIndex::c_2;
  constexpr uint32_t tiles = get_named_compile_time_arg_val("tiles_per_core");
  constexpr uint32_t sem_id = get_named_compile_time_arg_val("sem_id");
  static_assert(cb_in < 64, "a CB id");

  const uint32_t tile_bytes = get_tile_size(cb_in);
  const DataFormat format = get_dataformat(cb_in);
  const auto src = TensorAccessor(src_args, src_addr, tile_bytes);
  const InterleavedAddrGenFast<true> scaler = {
      .bank_base_address = scaler_addr, .page_size = tile_bytes, .data_format = format};

  DeviceZoneScopedN("reader");
  cb_reserve_back(cb_scaler, 1);
  noc_async_read_tile(0, scaler, get_write_ptr(cb_scaler));
  noc_async_read_barrier();
  cb_push_back(cb_scaler, 1);

  for (uint32_t i = 0; i < tiles; ++i) {
    cb_reserve_back(cb_in, 1);
    const uint32_t l1 = get_write_ptr(cb_in);
    if (i % 2 == 0) {
      noc_async_read_tile(first_tile + i, src, l1);
    } else {
      noc_async_read(get_noc_addr(first_tile + i, src), l1, tile_bytes);
    }
    noc_async_read_barrier();
    cb_push_back(cb_in, 1);
  }

  // Wait for the sender, then tell it this core is done.
  volatile tt_l1_ptr uint32_t* sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(sem_id));
  noc_semaphore_wait(sem, 1);
  noc_semaphore_set(sem, 0);
  noc_semaphore_inc(get_noc_addr(sender_x, sender_y, get_semaphore(sem_id)), 1);
  noc_async_atomic_barrier();

  const uint32_t* args = reinterpret_cast<const uint32_t*>(get_arg_addr(0));
  DPRINT << "reader on (" << uint32_t(my_x[0]) << "," << uint32_t(my_y[noc_index]) << ") read " << tiles
         << " tiles from " << HEX() << args[0] << DEC() << ENDL();
  DPRINT_DATA0(DPRINT << "NoC 0 reader" << ENDL());
  DPRINT("format {} page {}\n", format, tile_bytes);
  if (!cb_pages_available_at_front(cb_in, 1)) DEVICE_PRINT_DATA0("consumer took every tile\n");
}
