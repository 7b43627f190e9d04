// eltwise_add reader: streams this core's tiles of the two inputs a and b from DRAM into CB 0 and
// CB 1, one tile of each at a time.
//
// Every core of the grid runs this same kernel; only its runtime args differ. The host gives each
// core its own range of tiles [start_tile, start_tile + num_tiles), which is how a tt-metal program
// splits work across cores.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);      // DRAM base address of a
    const uint32_t b_addr = get_arg_val<uint32_t>(1);      // DRAM base address of b
    const uint32_t start_tile = get_arg_val<uint32_t>(2);  // this core's first tile
    const uint32_t num_tiles = get_arg_val<uint32_t>(3);   // how many tiles this core adds

    constexpr uint32_t cb_a = 0;
    constexpr uint32_t cb_b = 1;

    // The CB's page size and data format were set by the host (program.json's "cbs"); a kernel reads
    // them back with get_tile_size / get_dataformat, so the same kernel works for any tile format.
    const uint32_t tile_bytes_a = get_tile_size(cb_a);
    const uint32_t tile_bytes_b = get_tile_size(cb_b);

    // InterleavedAddrGenFast is the tile-layout flavour of InterleavedAddrGen: it derives the page
    // size from the data format (one 32x32 tile per page). <true> means the buffer is in DRAM.
    const InterleavedAddrGenFast<true> a = {
        .bank_base_address = a_addr, .page_size = tile_bytes_a, .data_format = get_dataformat(cb_a)};
    const InterleavedAddrGenFast<true> b = {
        .bank_base_address = b_addr, .page_size = tile_bytes_b, .data_format = get_dataformat(cb_b)};

    for (uint32_t tile = start_tile; tile < start_tile + num_tiles; ++tile) {
        cb_reserve_back(cb_a, 1);
        cb_reserve_back(cb_b, 1);
        // noc_async_read_tile(page, generator, L1 address): read one whole tile.
        noc_async_read_tile(tile, a, get_write_ptr(cb_a));
        noc_async_read_tile(tile, b, get_write_ptr(cb_b));
        noc_async_read_barrier();  // one barrier covers both reads
        cb_push_back(cb_a, 1);     // the compute kernel's cb_wait_front on these CBs now returns
        cb_push_back(cb_b, 1);
    }
}
