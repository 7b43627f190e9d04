#pragma once
// The compute processor's tile calls as the kernel uses them: each runs after its own init (and a
// reconfiguration of the unpacker's formats where its operand CBs change), as the chip's unpacker
// and math engine run whatever the last init set up; every pack after a reconfiguration of the
// packer where its output CB changes. Every sum is an fp32 DST accumulation: tiles are added into
// DST as matmuls by the identity (exact), row-broadcast tiles as matmuls of the column-0 tile.
#include <stdint.h>

#include "core_context.hpp"

namespace ditmk::tt::kernel {

// The compute side: tt-metal's JIT builds the compute API for TRISC only.
#if defined(COMPILE_FOR_TRISC)

// The first init of the compute processor: unpacker, math engine and packer for the kernel's
// streamed matmul, which unpacks in0 into SrcB and in1 into SrcA (SrcOrder::Reverse).
inline void start_compute(Ctx& x) {
  compute_kernel_hw_startup<SrcOrder::Reverse>(x.cb_a, x.cb_w, x.cb_mm0);
  matmul_init(x.cb_a, x.cb_w);
  x.op = ComputeOp::matmul, x.op_a = x.cb_a, x.op_b = x.cb_w, x.pack_cb = x.cb_mm0;
}

// Configures the unpacker and math engine for `op` on CBs (a, b) unless the last init did.
inline void configure(Ctx& x, ComputeOp op, uint32_t a, uint32_t b) {
  if (x.op == op && x.op_a == a && x.op_b == b) return;
  // A matmul's in0 is SrcB and in1 SrcA; every other op unpacks (a, b) into (SrcA, SrcB).
  if (op == ComputeOp::matmul) {
    reconfig_data_format<SrcOrder::Reverse>(a, b);
  } else {
    reconfig_data_format(a, b);
  }
  switch (op) {
    case ComputeOp::matmul: matmul_init(a, b); break;
    case ComputeOp::add: add_init(a, b); break;
    case ComputeOp::sub: sub_init(a, b); break;
    case ComputeOp::mul: mul_init(a, b, false); break;  // 0.81.1 defaults acc_to_dest on for mul
    case ComputeOp::sub_cols: sub_bcast_cols_init(a, b); break;
    case ComputeOp::mul_cols: mul_bcast_cols_init(a, b); break;
    case ComputeOp::mul_rows: mul_bcast_rows_init(a, b); break;
    case ComputeOp::copy: copy_init(a); break;
    case ComputeOp::transpose: transpose_init(a); break;
    case ComputeOp::reduce_max_row: reduce_init<PoolType::MAX, ReduceDim::REDUCE_ROW>(a, b, x.pack_cb); break;
    case ComputeOp::none: break;
  }
  x.op = op, x.op_a = a, x.op_b = b;
}

// DST[dst] += A(tile_a) x B(tile_b).
inline void mm(Ctx& x, uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst) {
  configure(x, ComputeOp::matmul, cb_a, cb_b);
  matmul_tiles(cb_a, cb_b, tile_a, tile_b, dst);
}

// DST[dst] += the row-broadcast tile `tile` of cb (bias, shift): column0 x tile.
inline void add_row(Ctx& x, uint32_t cb, uint32_t tile, uint32_t dst) { mm(x, x.cb_const, cb, kColumn0Tile, tile, dst); }

// DST[dst] += tile `tile` of cb exactly: identity x tile.
inline void add_tile(Ctx& x, uint32_t cb, uint32_t tile, uint32_t dst) { mm(x, x.cb_const, cb, kIdentTile, tile, dst); }

// DST[dst] = A op B, B's column 0 (cols) or row 0 (rows) broadcast where the op says so.
inline void binary(Ctx& x, ComputeOp op, uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst) {
  configure(x, op, cb_a, cb_b);
  switch (op) {
    case ComputeOp::sub: sub_tiles(cb_a, cb_b, tile_a, tile_b, dst); break;
    case ComputeOp::mul: mul_tiles(cb_a, cb_b, tile_a, tile_b, dst); break;
    case ComputeOp::sub_cols: sub_tiles_bcast_cols(cb_a, cb_b, tile_a, tile_b, dst); break;
    case ComputeOp::mul_cols: mul_tiles_bcast_cols(cb_a, cb_b, tile_a, tile_b, dst); break;
    case ComputeOp::mul_rows: mul_tiles_bcast_rows(cb_a, cb_b, tile_a, tile_b, dst); break;
    default: add_tiles(cb_a, cb_b, tile_a, tile_b, dst); break;
  }
}

// DST[dst] = the tile, exact (fp32 CBs unpack to DST as fp32).
inline void copy(Ctx& x, uint32_t cb, uint32_t tile, uint32_t dst) {
  configure(x, ComputeOp::copy, cb, cb);
  copy_tile(cb, tile, dst);
}

// DST[dst] = the tile transposed.
inline void transpose(Ctx& x, uint32_t cb, uint32_t tile, uint32_t dst) {
  configure(x, ComputeOp::transpose, cb, cb);
  transpose_tile(cb, tile, dst);
}

// DST[dst] column 0 = the maximum of each row of the tile. The reduce accumulates into DST and
// scales by the scaler tile: DST[dst] must be untouched since the acquire, the scaler is the ones
// tile. end_reduce after the pack clears the packer's edge mask.
inline void row_max(Ctx& x, uint32_t cb, uint32_t tile, uint32_t dst) {
  configure(x, ComputeOp::reduce_max_row, cb, x.cb_ones);
  reduce_tile<PoolType::MAX, ReduceDim::REDUCE_ROW>(cb, x.cb_ones, tile, 0, dst);
}
inline void end_reduce(Ctx& x) {
  reduce_uninit();
  x.op = ComputeOp::none;
}

// The SFPU ops on a DST tile, each after its init.
inline void exp_dst(uint32_t dst) { exp_tile_init(); exp_tile(dst); }
inline void recip_dst(uint32_t dst) { recip_tile_init(); recip_tile(dst); }
inline void sqrt_dst(uint32_t dst) { sqrt_tile_init(); sqrt_tile(dst); }
inline void rsqrt_dst(uint32_t dst) { rsqrt_tile_init(); rsqrt_tile(dst); }
inline void gelu_dst(uint32_t dst) { gelu_tile_init(); gelu_tile(dst); }
inline void silu_dst(uint32_t dst) { silu_tile_init(); silu_tile(dst); }

// The math is done: DST goes to the packer.
inline void finish_math() {
  tile_regs_commit();
  tile_regs_wait();
}

// DST[first_dst .. first_dst + n) packed into a reserved and pushed n-page window of cb.
inline void pack_range(Ctx& x, uint32_t cb, uint32_t first_dst, uint32_t n) {
  if (x.pack_cb != cb) pack_reconfig_data_format(cb), x.pack_cb = cb;
  cb_reserve_back(cb, n);
  for (uint32_t i = 0; i < n; ++i) pack_tile(first_dst + i, cb);
  cb_push_back(cb, n);
}

#endif  // defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
