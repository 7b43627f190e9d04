// eltwise_add writer: drains CB 16 (the compute kernel's output) into this core's tiles of c in DRAM.
//
// This kernel includes the older, flat header name "dataflow_api.h"; tt-metal accepts both it and
// "api/dataflow/dataflow_api.h".
#include <cstdint>

#include "dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t start_tile = get_arg_val<uint32_t>(1);
    const uint32_t num_tiles = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_out = 16;

    const uint32_t tile_bytes = get_tile_size(cb_out);  // get_tile_size returns int32_t, as in tt-metal
    const InterleavedAddrGenFast<true> c = {
        .bank_base_address = c_addr, .page_size = tile_bytes, .data_format = get_dataformat(cb_out)};

    for (uint32_t tile = start_tile; tile < start_tile + num_tiles; ++tile) {
        cb_wait_front(cb_out, 1);  // blocks until the compute kernel has packed and pushed a tile
        noc_async_write_tile(tile, c, get_read_ptr(cb_out));
        noc_async_write_barrier();  // the tile has left L1: its page can be popped and reused
        cb_pop_front(cb_out, 1);
    }
}
