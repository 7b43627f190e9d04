// matmul_mcast writer: writes this core's per_core_M x per_core_N output block into C in DRAM.
// Runs on the other data-movement processor (RISCV_0), so it never competes with the reader.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t c_start_tile = get_arg_val<uint32_t>(1);  // C(y * per_core_M, x * per_core_N)

    constexpr uint32_t Nt = get_named_compile_time_arg_val("Nt");
    constexpr uint32_t per_core_M = get_named_compile_time_arg_val("per_core_M");
    constexpr uint32_t per_core_N = get_named_compile_time_arg_val("per_core_N");
    constexpr uint32_t out_block_tiles = per_core_M * per_core_N;

    constexpr uint32_t cb_out = 16;
    const uint32_t tile_bytes = get_tile_size(cb_out);

    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, tile_bytes);

    cb_wait_front(cb_out, out_block_tiles);
    uint32_t l1_addr = get_read_ptr(cb_out);
    for (uint32_t m = 0; m < per_core_M; ++m) {
        for (uint32_t n = 0; n < per_core_N; ++n) {
            noc_async_write_tile(c_start_tile + m * Nt + n, c, l1_addr);
            l1_addr += tile_bytes;
        }
    }
    noc_async_write_barrier();
    cb_pop_front(cb_out, out_block_tiles);
}
