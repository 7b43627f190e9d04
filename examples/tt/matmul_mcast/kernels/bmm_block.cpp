// matmul_mcast compute: this core's output block C(y, x) = A's block row y @ B's block column x.
//
// The block is per_core_M x per_core_N tiles and stays in DST for the whole K loop: each K block
// (A: per_core_M x block_w tiles, B: block_w x per_core_N, as the reader pushed them, row-major)
// adds its partial products into it. The 2x2 block here fits in DST; tt-metal's production kernel
// (bmm_large_block_zm) splits larger blocks into sub-blocks and spills partial sums to an
// intermediate CB between K blocks.
#include <cstdint>

#include "api/compute/matmul.h"
#include "api/compute/tile_move_copy.h"
#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
    constexpr uint32_t block_w = get_compile_time_arg_val(0);     // K tiles per block
    constexpr uint32_t num_blocks = get_compile_time_arg_val(1);  // K blocks
    constexpr uint32_t per_core_M = get_compile_time_arg_val(2);  // output block rows (tiles)
    constexpr uint32_t per_core_N = get_compile_time_arg_val(3);  // output block columns (tiles)

    constexpr uint32_t a_block_tiles = per_core_M * block_w;
    constexpr uint32_t b_block_tiles = block_w * per_core_N;
    constexpr uint32_t out_block_tiles = per_core_M * per_core_N;

    constexpr uint32_t cb_a = 0;
    constexpr uint32_t cb_b = 1;
    constexpr uint32_t cb_out = 16;

    mm_init(cb_a, cb_b, cb_out);

    tile_regs_acquire();
    for (uint32_t block = 0; block < num_blocks; ++block) {
        cb_wait_front(cb_a, a_block_tiles);  // a whole K block of each operand
        cb_wait_front(cb_b, b_block_tiles);
        // A profiler zone: from here to the end of the scope. With --timing it appears in the trace
        // as a span named "k-block" on this core's compute track; without, it costs nothing.
        DeviceZoneScopedN("k-block");
        for (uint32_t m = 0; m < per_core_M; ++m) {
            for (uint32_t n = 0; n < per_core_N; ++n) {
                for (uint32_t k = 0; k < block_w; ++k) {
                    // DST[m, n] += A[m, k] x B[k, n]; tile indices count from each CB's front.
                    matmul_tiles(cb_a, cb_b, m * block_w + k, k * per_core_N + n, m * per_core_N + n);
                }
            }
        }
        cb_pop_front(cb_a, a_block_tiles);  // lets the reader receive the next block into this space
        cb_pop_front(cb_b, b_block_tiles);
    }
    tile_regs_commit();

    tile_regs_wait();
    cb_reserve_back(cb_out, out_block_tiles);
    for (uint32_t i = 0; i < out_block_tiles; ++i) {
        pack_tile(i, cb_out);  // packs into the reservation in order: C block tile i = (i / N, i % N)
    }
    cb_push_back(cb_out, out_block_tiles);
    tile_regs_release();
}
