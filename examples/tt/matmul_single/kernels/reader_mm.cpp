// matmul_single reader: feeds the compute kernel the tiles of A and B in the order it multiplies
// them. For every output tile C(mt, nt) it pushes, for kt = 0 .. Kt-1, the pair A(mt, kt) into CB 0
// and B(kt, nt) into CB 1.
//
// The inputs are located with TensorAccessor, tt-metal's general address generator: the host appends
// a description of each tensor (where it lives, how it is laid out) to the kernel's compile-time
// args (program.json: {"tensor_accessor_args": "a"}), and the kernel rebuilds an accessor from it.
// The same kernel therefore reads interleaved or sharded tensors, in any tile format: program.json
// and program_bfp8.json run it unchanged with B in bfloat16 and in bfloat8_b.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t Mt = get_arg_val<uint32_t>(2);  // tiles: A is Mt x Kt, B is Kt x Nt, C is Mt x Nt
    const uint32_t Kt = get_arg_val<uint32_t>(3);
    const uint32_t Nt = get_arg_val<uint32_t>(4);

    constexpr uint32_t cb_a = 0;
    constexpr uint32_t cb_b = 1;

    // TensorAccessorArgs<offset>() reads the tensor description starting at compile-time arg
    // `offset`; next_compile_time_args_offset() is where the next one begins.
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    // The page size is one tile of the CB's format: 2048 bytes for bfloat16, 1088 for bfloat8_b.
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(cb_a));
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(cb_b));

    // Tiles are numbered row-major over the tile grid: tile (r, c) of a matrix R x C tiles is r * C + c.
    for (uint32_t mt = 0; mt < Mt; ++mt) {
        for (uint32_t nt = 0; nt < Nt; ++nt) {
            for (uint32_t kt = 0; kt < Kt; ++kt) {
                cb_reserve_back(cb_a, 1);
                noc_async_read_tile(mt * Kt + kt, a, get_write_ptr(cb_a));
                noc_async_read_barrier();
                cb_push_back(cb_a, 1);

                cb_reserve_back(cb_b, 1);
                noc_async_read_tile(kt * Nt + nt, b, get_write_ptr(cb_b));
                noc_async_read_barrier();
                cb_push_back(cb_b, 1);
            }
        }
    }
}
