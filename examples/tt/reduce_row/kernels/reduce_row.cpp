// reduce_row compute: sums each row of the input over the last dimension.
//
// For each tile row, the Wt tiles across it are reduced into one output tile held in DST:
// reduce_tile with ReduceDim::REDUCE_ROW adds every row of a tile into column 0 of DST[idst]
// (times the scaler tile), and since DST is not cleared between calls, reducing Wt tiles into the
// same DST tile sums the whole row. The other 31 columns of the output tile stay zero.
//
// Which reduction runs is chosen by two defines the host passes (program.json's "defines"):
//   REDUCE_OP  = PoolType::SUM      (or PoolType::MAX, PoolType::AVG)
//   REDUCE_DIM = ReduceDim::REDUCE_ROW  (or REDUCE_COL, REDUCE_SCALAR)
// They are also the defaults of reduce_init / reduce_tile's template parameters; naming them
// explicitly, as below, reads the same.
#include <cstdint>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/reduce.h"

void kernel_main() {
    constexpr uint32_t Ht = get_compile_time_arg_val(0);  // tile rows
    constexpr uint32_t Wt = get_compile_time_arg_val(1);  // tiles per row (the reduced dimension)

    constexpr uint32_t cb_in = 0;
    constexpr uint32_t cb_scaler = 2;
    constexpr uint32_t cb_out = 16;

    // The one full hardware init at the kernel's start (unpacker, math and packer configured for
    // these CBs), then the op init that selects the reduction.
    compute_kernel_hw_startup(cb_in, cb_scaler, cb_out);
    reduce_init<REDUCE_OP, REDUCE_DIM>(cb_in, cb_scaler, cb_out);

    cb_wait_front(cb_scaler, 1);  // the scaler tile, filled once by the reader, never popped

    for (uint32_t ht = 0; ht < Ht; ++ht) {
        tile_regs_acquire();
        for (uint32_t wt = 0; wt < Wt; ++wt) {
            cb_wait_front(cb_in, 1);
            // DST[0] column 0 += sum over each row of cb_in[0], times the scaler.
            reduce_tile<REDUCE_OP, REDUCE_DIM>(cb_in, cb_scaler, 0, 0, 0);
            cb_pop_front(cb_in, 1);
        }
        tile_regs_commit();

        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        cb_push_back(cb_out, 1);
        tile_regs_release();
    }

    // Restores the packer state reduce_init changed, as tt-metal asks before any other operation.
    reduce_uninit();
}
