#include "ditmk/tt/dialect/device_abi.hpp"

#include "ditmk/tt/dialect/device_abi_parts.hpp"

namespace ditmk::tt::dialect {

// Designated in declaration order, so a member left out or moved in the C header fails to compile
// here rather than reaching a kernel as a null pointer.
const ditmk_device_abi& device_abi() {
  static constexpr ditmk_device_abi table = {
      .fault = abi::fault,
      .dprint = abi::dprint,
      .dprint_text = abi::dprint_text,
      .dprint_format = abi::dprint_format,
      .zone_begin = abi::zone_begin,
      .zone_end = abi::zone_end,
      .zone_data = abi::zone_data,
      .risc_l1_bytes = abi::risc_l1_bytes,
      .my_x = abi::my_x,
      .my_y = abi::my_y,
      .arg = abi::arg,
      .common_arg = abi::common_arg,
      .arg_address = abi::arg_address,
      .common_arg_address = abi::common_arg_address,
      .cb_reserve_back = abi::cb_reserve_back,
      .cb_push_back = abi::cb_push_back,
      .cb_wait_front = abi::cb_wait_front,
      .cb_pop_front = abi::cb_pop_front,
      .cb_pages_ready = abi::cb_pages_ready,
      .get_write_ptr = abi::get_write_ptr,
      .get_read_ptr = abi::get_read_ptr,
      .get_tile_size = abi::get_tile_size,
      .get_dataformat = abi::get_dataformat,
      .noc_addr = abi::noc_addr,
      .noc_multicast_addr = abi::noc_multicast_addr,
      .dram_noc_addr = abi::dram_noc_addr,
      .noc_async_read = abi::noc_async_read,
      .noc_async_write = abi::noc_async_write,
      .noc_async_write_multicast = abi::noc_async_write_multicast,
      .noc_barrier = abi::noc_barrier,
      .get_semaphore = abi::get_semaphore,
      .noc_semaphore_wait = abi::noc_semaphore_wait,
      .noc_semaphore_set = abi::noc_semaphore_set,
      .noc_semaphore_inc = abi::noc_semaphore_inc,
      .noc_semaphore_set_multicast = abi::noc_semaphore_set_multicast,
      .compute_init = abi::compute_init,
      .dst = abi::dst,
      .copy_tile = abi::copy_tile,
      .transpose_wh_tile = abi::transpose_wh_tile,
      .binary_tiles = abi::binary_tiles,
      .matmul_tiles = abi::matmul_tiles,
      .reduce_tile = abi::reduce_tile,
      .sfpu_tile = abi::sfpu_tile,
      .pack_tile = abi::pack_tile,
  };
  return table;
}

}  // namespace ditmk::tt::dialect
