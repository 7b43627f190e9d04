// producer_consumer, core A (the producer), RISCV_0: sends each round's tiles from the staging CB
// straight into core B's receive CB with a NoC write, and tells B with a semaphore increment.
//
// The protocol, per round (semaphore ids from the named compile-time args; every semaphore exists
// on both cores at the same L1 address, so get_semaphore(id) names it on either core):
//   B: reserves its receive CB and increments A's `slot_free` semaphore ("room for a round").
//      For every round after the first this is also the acknowledgement of the previous one: B
//      can only reserve again once its compute kernel has consumed (popped) the previous round.
//   A: waits for slot_free == 1 and resets it, writes the tiles into B's receive CB, waits for the
//      write to complete (noc_async_write_barrier), then increments B's `data_ready` semaphore.
//   B: waits for data_ready == 1, resets it and pushes the tiles into its receive CB.
// The barrier before the increment matters: a NoC write is asynchronous, and B must not see the
// signal before the data.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t consumer_x = get_arg_val<uint32_t>(0);  // core B's NoC coordinates
    const uint32_t consumer_y = get_arg_val<uint32_t>(1);
    const uint32_t rounds = get_arg_val<uint32_t>(2);
    const uint32_t tiles_per_round = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_send = 0;  // this core's staging CB, filled by producer_reader
    constexpr uint32_t cb_recv = 1;  // B's receive CB; configured on this core too (see below)

    volatile tt_l1_ptr uint32_t* slot_free = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(
        get_semaphore(get_named_compile_time_arg_val("slot_free_sem")));
    const uint32_t data_ready_addr = get_semaphore(get_named_compile_time_arg_val("data_ready_sem"));

    // Where to write on B: the host configures cb_recv identically on both cores (program.json), so
    // its pages sit at the same L1 address on A as on B, and this core's copy, never used otherwise,
    // gives that address. cb_recv holds exactly one round, so B's write pointer is back at the CB's
    // start every round.
    const uint32_t recv_addr = get_write_ptr(cb_recv);
    const uint64_t recv_noc_addr = get_noc_addr(consumer_x, consumer_y, recv_addr);
    const uint64_t data_ready_noc_addr = get_noc_addr(consumer_x, consumer_y, data_ready_addr);

    const uint32_t round_bytes = tiles_per_round * get_tile_size(cb_send);
    for (uint32_t round = 0; round < rounds; ++round) {
        cb_wait_front(cb_send, tiles_per_round);

        noc_semaphore_wait(slot_free, 1);  // B has room (and consumed the previous round)
        noc_semaphore_set(slot_free, 0);

        noc_async_write(get_read_ptr(cb_send), recv_noc_addr, round_bytes);  // A's L1 -> B's L1
        noc_async_write_barrier();
        noc_semaphore_inc(data_ready_noc_addr, 1);

        cb_pop_front(cb_send, tiles_per_round);
    }
    noc_async_atomic_barrier();  // the last increment has reached B
}
