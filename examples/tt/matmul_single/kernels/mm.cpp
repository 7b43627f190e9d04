// matmul_single compute: C = A @ B on one core, one output tile at a time, accumulating over K in DST.
//
// This kernel is written in tt-metal's older compute form: the body lives in
//     namespace NAMESPACE { void MAIN { ... } }
// where the build defines NAMESPACE and MAIN (on a chip, once per TRISC processor). Newer kernels
// write `void kernel_main()` instead (see eltwise_add/kernels/add.cpp); both forms run unchanged.
#include <cstdint>

#include "api/compute/matmul.h"
#include "api/compute/tile_move_copy.h"

namespace NAMESPACE {
void MAIN {
    constexpr uint32_t Mt = get_compile_time_arg_val(0);
    constexpr uint32_t Kt = get_compile_time_arg_val(1);
    constexpr uint32_t Nt = get_compile_time_arg_val(2);

    // tt::CBIndex names the CB ids: c_0 .. c_63.
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;

    // Configure unpack, math and pack for tile matmuls reading cb_a, cb_b and writing cb_out.
    mm_init(cb_a, cb_b, cb_out);

    for (uint32_t mt = 0; mt < Mt; ++mt) {
        for (uint32_t nt = 0; nt < Nt; ++nt) {
            tile_regs_acquire();  // DST starts at zero: it is the accumulator of C(mt, nt)
            for (uint32_t kt = 0; kt < Kt; ++kt) {
                cb_wait_front(cb_a, 1);  // A(mt, kt), pushed by the reader
                cb_wait_front(cb_b, 1);  // B(kt, nt)
                // DST[0] += cb_a[0] x cb_b[0]. matmul_tiles always accumulates into DST, which is
                // how the K loop sums its partial products without leaving the register file.
                matmul_tiles(cb_a, cb_b, 0, 0, 0);
                cb_pop_front(cb_a, 1);
                cb_pop_front(cb_b, 1);
            }
            tile_regs_commit();

            tile_regs_wait();
            cb_reserve_back(cb_out, 1);
            pack_tile(0, cb_out);  // C(mt, nt), rounded to cb_out's format
            cb_push_back(cb_out, 1);
            tile_regs_release();
        }
    }
}
}  // namespace NAMESPACE
