// eltwise_add compute: c = a + b, one tile at a time.
//
// A compute kernel runs on the Tensix core's compute engine (on a chip three "TRISC" processors
// split it into unpack, math and pack; the API hides that: every call below is written once). Its
// data path is:
//   CB (L1) --unpack--> math on the DST register file --pack--> CB (L1)
// DST holds a handful of tiles. The protocol around it is fixed:
//   tile_regs_acquire()   take DST for math (it starts zeroed)
//   ... math calls writing DST[i] ...
//   tile_regs_commit()    hand DST over to the packer
//   tile_regs_wait()      packer side: wait until math has committed
//   pack_tile(i, cb)      write DST[i] into the next page of cb's reservation, in cb's format
//   tile_regs_release()   give DST back for the next round of math
//
// Compute kernels include the compute API headers they use; newer tt-metal writes their entry point
// as `void kernel_main()`, like data-movement kernels (matmul_single shows the older form).
#include <cstdint>

#include "api/compute/eltwise_binary.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    // Positional compile-time args ("compile_time_args" in program.json): get_compile_time_arg_val(i)
    // is a constant expression. Every core adds the same number of tiles, so it is baked in.
    constexpr uint32_t num_tiles = get_compile_time_arg_val(0);

    constexpr uint32_t cb_a = 0;
    constexpr uint32_t cb_b = 1;
    constexpr uint32_t cb_out = 16;  // tt-metal's convention: output CBs from 16 (tt::CBIndex::c_16)

    // One-time setup of unpack/math/pack for a binary operation reading cb_a, cb_b into cb_out, then
    // the short init that selects addition.
    binary_op_init_common(cb_a, cb_b, cb_out);
    add_tiles_init(cb_a, cb_b);

    for (uint32_t i = 0; i < num_tiles; ++i) {
        cb_wait_front(cb_a, 1);  // the reader has pushed one tile of each input
        cb_wait_front(cb_b, 1);

        tile_regs_acquire();
        // DST[0] = cb_a[0] + cb_b[0]; tile indices count from each CB's front.
        add_tiles(cb_a, cb_b, 0, 0, 0);
        tile_regs_commit();

        cb_pop_front(cb_a, 1);  // the inputs are consumed: the reader may refill these pages
        cb_pop_front(cb_b, 1);

        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);  // rounds the fp32 sum into cb_out's format (bfloat16 here)
        cb_push_back(cb_out, 1);
        tile_regs_release();
    }
}
