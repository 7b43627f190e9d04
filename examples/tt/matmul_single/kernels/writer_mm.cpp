// matmul_single writer: writes the output tiles C(0,0), C(0,1), ... in the order the compute kernel
// packs them (row-major over C's tile grid), which is also C's page order in DRAM.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);  // Mt * Nt

    constexpr uint32_t cb_out = 16;

    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, get_tile_size(cb_out));

    for (uint32_t tile = 0; tile < num_tiles; ++tile) {
        cb_wait_front(cb_out, 1);
        noc_async_write_tile(tile, c, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
}
