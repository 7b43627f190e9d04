// reduce_row reader: builds the reduce "scaler" tile in CB 2, then streams the input tiles into CB 0
// in row-major tile order (all Wt tiles of tile row 0, then of tile row 1, ...).
//
// reduce_tile multiplies what it reduces by a scaler tile read from a CB: for a sum the scaler is
// 1.0, for a mean 1/N. The reader writes that tile itself, through a pointer: in a tt-metal kernel
// an L1 address (get_write_ptr) can be cast to a pointer and stored through, which is how kernels
// fill constants, headers or flags without a NoC transfer.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

namespace {

// Fills one bfloat16 tile in `cb` the way reduce_tile expects its scaler: zeros everywhere except
// the first row of each of the tile's four 16x16 faces, which holds the scaler. `packed_scaler` is
// the bfloat16 bit pattern twice (high and low half), so one 32-bit store writes two elements.
FORCE_INLINE void fill_scaler_tile(uint32_t cb, uint32_t packed_scaler) {
    constexpr uint32_t kTileWords = 2048 / sizeof(uint32_t);  // 32x32 bfloat16 = 2048 bytes
    constexpr uint32_t kFaceWords = 16 * 16 / 2;              // 256 elements, two per word
    constexpr uint32_t kFaceRowWords = 16 / 2;                // 16 elements of a face row

    cb_reserve_back(cb, 1);
    // tt_l1_ptr marks a pointer into L1; volatile keeps every store (other processors read it).
    volatile tt_l1_ptr uint32_t* tile = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb));
    for (uint32_t i = 0; i < kTileWords; ++i) {
        tile[i] = 0;
    }
    for (uint32_t face = 0; face < 4; ++face) {
        for (uint32_t i = 0; i < kFaceRowWords; ++i) {
            tile[face * kFaceWords + i] = packed_scaler;
        }
    }
    cb_push_back(cb, 1);  // the compute kernel waits for it once and keeps it for every reduce_tile
}

}  // namespace

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);  // Ht * Wt

    // 1.0 in bfloat16 is 0x3F80 (the top half of the float 1.0f, 0x3F800000); packed twice it is
    // 0x3F803F80. The host passes it as a named compile-time arg.
    constexpr uint32_t packed_scaler = get_named_compile_time_arg_val("packed_scaler");

    constexpr uint32_t cb_in = 0;
    constexpr uint32_t cb_scaler = 2;

    fill_scaler_tile(cb_scaler, packed_scaler);

    const uint32_t tile_bytes = get_tile_size(cb_in);  // get_tile_size returns int32_t, as in tt-metal
    const InterleavedAddrGenFast<true> src = {
        .bank_base_address = src_addr, .page_size = tile_bytes, .data_format = get_dataformat(cb_in)};
    for (uint32_t tile = 0; tile < num_tiles; ++tile) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_tile(tile, src, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
