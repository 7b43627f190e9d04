// producer_consumer, core A (the producer), RISCV_1: reads the input from DRAM, one round of
// tiles_per_round tiles at a time, into the staging CB 0 (room for two rounds, so the next round's
// reads overlap the current round's transfer to core B).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t rounds = get_arg_val<uint32_t>(1);
    const uint32_t tiles_per_round = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_send = 0;
    const uint32_t tile_bytes = get_tile_size(cb_send);

    const InterleavedAddrGenFast<true> src = {
        .bank_base_address = src_addr, .page_size = tile_bytes, .data_format = get_dataformat(cb_send)};

    uint32_t tile = 0;
    for (uint32_t round = 0; round < rounds; ++round) {
        cb_reserve_back(cb_send, tiles_per_round);
        uint32_t l1_addr = get_write_ptr(cb_send);
        for (uint32_t i = 0; i < tiles_per_round; ++i, ++tile) {
            noc_async_read_tile(tile, src, l1_addr);
            l1_addr += tile_bytes;
        }
        noc_async_read_barrier();
        cb_push_back(cb_send, tiles_per_round);
    }
}
