// producer_consumer, core B (the consumer), RISCV_1: B's side of the handshake (see
// producer_sender.cpp). It moves no data itself: core A writes into B's receive CB over the NoC,
// and this kernel only reserves the space, signals A, waits for A's signal and pushes the pages.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t producer_x = get_arg_val<uint32_t>(0);  // core A's NoC coordinates
    const uint32_t producer_y = get_arg_val<uint32_t>(1);
    const uint32_t rounds = get_arg_val<uint32_t>(2);
    const uint32_t tiles_per_round = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_recv = 1;

    const uint32_t slot_free_addr = get_semaphore(get_named_compile_time_arg_val("slot_free_sem"));
    volatile tt_l1_ptr uint32_t* data_ready = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(
        get_semaphore(get_named_compile_time_arg_val("data_ready_sem")));
    const uint64_t slot_free_noc_addr = get_noc_addr(producer_x, producer_y, slot_free_addr);

    for (uint32_t round = 0; round < rounds; ++round) {
        // Blocks until the compute kernel popped the previous round: that is the acknowledgement.
        cb_reserve_back(cb_recv, tiles_per_round);
        noc_semaphore_inc(slot_free_noc_addr, 1);

        noc_semaphore_wait(data_ready, 1);  // A's data has landed in the reserved pages
        noc_semaphore_set(data_ready, 0);

        cb_push_back(cb_recv, tiles_per_round);
    }
    noc_async_atomic_barrier();
}
