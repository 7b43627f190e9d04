// producer_consumer, core B, compute: consumes the rounds as they arrive and emits running sums:
// output round r = input round 0 + ... + input round r, tile by tile.
//
// The running sum of the previous round is kept in CB 24 (cb_acc): each result tile is packed
// twice, into the output CB for the writer and into cb_acc for the next round. Round 0 has nothing
// to add to, so it copies its tiles (copy_tile: CB -> DST unchanged).
#include <cstdint>

#include "api/compute/eltwise_binary.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t rounds = get_compile_time_arg_val(0);
    constexpr uint32_t tiles_per_round = get_compile_time_arg_val(1);

    constexpr uint32_t cb_recv = 1;   // pushed by consumer_receiver, written by core A
    constexpr uint32_t cb_out = 16;   // drained by consumer_writer
    constexpr uint32_t cb_acc = 24;   // intermediate: the previous round's sums (room for two rounds)

    binary_op_init_common(cb_recv, cb_acc, cb_out);

    for (uint32_t round = 0; round < rounds; ++round) {
        const bool first = round == 0;
        const bool last = round + 1 == rounds;

        // Re-initialise when the operation changes: round 0 copies, every later round adds.
        if (first) {
            copy_tile_init(cb_recv);
        } else if (round == 1) {
            add_tiles_init(cb_recv, cb_acc);
        }

        cb_wait_front(cb_recv, tiles_per_round);
        if (!first) {
            cb_wait_front(cb_acc, tiles_per_round);
        }

        for (uint32_t t = 0; t < tiles_per_round; ++t) {
            tile_regs_acquire();
            if (first) {
                copy_tile(cb_recv, t, 0);  // DST[0] = cb_recv[t]
            } else {
                add_tiles(cb_recv, cb_acc, t, t, 0);  // DST[0] = cb_recv[t] + cb_acc[t]
            }
            tile_regs_commit();

            tile_regs_wait();
            cb_reserve_back(cb_out, 1);
            pack_tile(0, cb_out);
            cb_push_back(cb_out, 1);
            if (!last) {
                cb_reserve_back(cb_acc, 1);  // behind the previous round's tiles, still at the front
                pack_tile(0, cb_acc);
                cb_push_back(cb_acc, 1);
            }
            tile_regs_release();
        }

        cb_pop_front(cb_recv, tiles_per_round);  // frees the receive CB: the acknowledgement to A
        if (!first) {
            cb_pop_front(cb_acc, tiles_per_round);
        }
    }
}
