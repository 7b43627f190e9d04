// producer_consumer, core B, RISCV_0: writes the running sums to DRAM in the order they are packed.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);  // rounds * tiles_per_round

    constexpr uint32_t cb_out = 16;

    const uint32_t tile_bytes = get_tile_size(cb_out);  // get_tile_size returns int32_t, as in tt-metal
    const InterleavedAddrGenFast<true> dst = {
        .bank_base_address = dst_addr, .page_size = tile_bytes, .data_format = get_dataformat(cb_out)};
    for (uint32_t tile = 0; tile < num_tiles; ++tile) {
        cb_wait_front(cb_out, 1);
        noc_async_write_tile(tile, dst, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
}
