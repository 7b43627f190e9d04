#pragma once
// The device side of the emulator, compute half (TRISC only): tiles are unpacked from CBs into an
// fp32 DST register file of kDstTiles tiles, worked on there, and packed into a CB in that CB's
// format with the format's rounding (the tile codec). Tile indices of inputs count from the CB's
// front (its read pointer); pack_tile fills the current reservation in order.
//
// DST protocol as in tt-metal: tile_regs_acquire (DST zeroed) -> math -> tile_regs_commit ->
// tile_regs_wait -> pack_tile ... -> tile_regs_release. The packer's wait may also come before the
// commit in program order (acquire -> wait -> math, packs -> commit -> release), as on silicon, where
// each TRISC runs only its own role's calls and the packer blocks until the commit.
#include <cstdint>
#include <functional>
#include <string_view>

namespace ditmk::tt::emu {

void tile_regs_acquire();
void tile_regs_commit();
void tile_regs_wait();
void tile_regs_release();

// DST[dst] = tile
void copy_tile(uint32_t cb, uint32_t tile, uint32_t dst);
// DST[dst] = the tile transposed (rows become columns), as the unpacker's transpose does
void transpose_wh_tile(uint32_t cb, uint32_t tile, uint32_t dst);
// DST[dst] += A(tile_a) x B(tile_b), fp32 accumulation
void matmul_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst);

// DST[dst] = A op B, B optionally broadcast: row (B's first row down every row), col (B's first
// column across every column), scalar (B's element (0,0) everywhere).
enum class Broadcast { none, row, col, scalar };
void add_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst,
               Broadcast broadcast = Broadcast::none);
void sub_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst,
               Broadcast broadcast = Broadcast::none);
void mul_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst,
               Broadcast broadcast = Broadcast::none);

// DST[dst] = the tile broadcast on its own (unary_bcast): row, col or scalar as above; none copies.
void unary_bcast_tile(Broadcast broadcast, uint32_t cb, uint32_t tile, uint32_t dst);
// DST[dst] = DST[dst] op tile when DST's tile is the first operand (dst_first), else tile op DST[dst]:
// a binary op with one operand taken from DST, as tt-metal's dest-reuse unpack moves DST's tile into
// SrcA or SrcB and the CB's tile into the other.
enum class BinaryOp { add, sub, mul };
void binary_reuse_dest(BinaryOp op, bool dst_first, uint32_t cb, uint32_t tile, uint32_t dst);

// DST[dst] = reduction of the tile: row reduces each row into column 0, col each column into
// row 0, scalar everything into (0,0); the other elements are 0. `scaler` (a row-major 32x32 tile)
// weighs the reduced elements as the FPU does (reduce_scaler.hpp); none is a tile of ones.
enum class ReduceFunc { sum, max };
enum class ReduceDim { row, col, scalar };
void reduce_tile(ReduceFunc func, ReduceDim dim, uint32_t cb, uint32_t tile, uint32_t dst,
                 const float* scaler = nullptr);

// Elementwise, in place on DST[dst].
void exp_tile(uint32_t dst);
void recip_tile(uint32_t dst);
void sqrt_tile(uint32_t dst);
void rsqrt_tile(uint32_t dst);
void gelu_tile(uint32_t dst);  // tanh approximation, as the DiT's feed-forward uses
void silu_tile(uint32_t dst);

// The SFPU's element-wise pass every SFPU function shares: TRISC only, DST acquired, `fn` applied
// to each value of DST[dst] in place, timed as `cycles` (sfpu_functions.hpp names the functions).
void sfpu_pass(uint32_t dst, std::string_view call, double cycles, const std::function<float(float)>& fn);

// The SFPU's pass over two DST tiles into a third (sfpu_binary_functions.hpp): TRISC only, DST
// acquired, DST[odst][i] = fn(DST[dst0][i], DST[dst1][i]) for every value (odst may be either input),
// timed as `cycles`.
void sfpu_binary_pass(uint32_t dst0, uint32_t dst1, uint32_t odst, std::string_view call, double cycles,
                      const std::function<float(float, float)>& fn);

// Packs DST[dst] into the next tile of cb's reservation.
void pack_tile(uint32_t dst, uint32_t cb);

// Row-major data in CBs (tilize, untilize). A CB of Float16_b or Float32 holds row-major rows of
// 2 or 4 B elements; Bfp8_b has no row-major form.
//
// DST[dst] = tile `tile` of the row-major block at cb's front whose rows are `row_tiles` tiles wide
// (tile t covers rows 32 * (t / row_tiles) .. +32, columns 32 * (t % row_tiles) .. +32). `tf32`: the
// unpacker keeps 10 mantissa bits of each fp32 value (the fast tilize).
void unpack_tilize(uint32_t cb, uint32_t tile, uint32_t row_tiles, uint32_t dst, bool tf32);
// Writes `tile_rows` x `block_tiles` DST tiles (DST[r * block_tiles + c]) as row-major rows into cb's
// reservation in cb's format: rows `full_tiles` tiles wide, this block starting at column tile
// block_index * block_tiles, tile row r at rows 32 * r .. +32.
void pack_untilize(uint32_t block_tiles, uint32_t full_tiles, uint32_t block_index, uint32_t tile_rows,
                   uint32_t cb);

}  // namespace ditmk::tt::emu
