#pragma once
// Binary ops with B broadcast: ROW takes B's first row down every row, COL B's first column across
// every column, SCALAR B's element (0,0) everywhere. Each needs the init of its op and broadcast
// (init_bcast, or the *_init_short of that op and dimension) as the last op init. Broadcasting
// another row of B (bcast_row_idx != 0) is not modelled and faults.
#include "api/compute/common.h"
#include "ditmk/compute.h"
// the LLK calls 0.81.1's header brings in, which kernels (ttnn's kernel_lib) call directly
#include "llk_math_binary_api.h"
#include "llk_unpack_AB_api.h"

namespace ckernel {

// unary_bcast: DST[dst] = tile in_tile_index of icb broadcast on its own (ROW its first row down
// every row, COL its first column across, SCALAR its element (0,0) everywhere); unary_bcast_init of
// the same broadcast must be the last op init. unary_bcast_uninit restores the unpacker's default
// configuration, which the emulator does not keep: no effect.
template <BroadcastType bcast_type, auto... options>
ALWI void unary_bcast_init(uint32_t icb) {
  (void)icb;
  ditmk::compute::init(DITMK_INIT_UNARY_BCAST, ditmk::compute::broadcast(bcast_type));
}

template <BroadcastType bcast_type, auto... options>
ALWI void unary_bcast(uint32_t icb, uint32_t in_tile_index, uint32_t dst_tile_index) {
  ditmk::abi->unary_bcast_tile(ditmk::compute::broadcast(bcast_type), icb, in_tile_index, dst_tile_index);
}

template <BroadcastType bcast_type>
ALWI void unary_bcast_uninit(uint32_t icb) {
  (void)icb;
}

template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim>
ALWI void init_bcast(uint32_t icb0, uint32_t icb1, uint32_t ocb = 16) {
  (void)icb0, (void)icb1, (void)ocb;
  ditmk::compute::init(DITMK_INIT_HW);
  ditmk::compute::init(DITMK_INIT_BINARY, ditmk::compute::binary_op<tBcastOp>(), ditmk::compute::broadcast(tBcastDim));
}

template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim>
ALWI void any_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0) {
  if (bcast_row_idx != 0) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, ditmk::detail::Message()
                                                   << "broadcast of row " << bcast_row_idx
                                                   << " of B: only row 0 is modelled (bcast_row_idx must be 0)");
  }
  ditmk::abi->binary_tiles(ditmk::compute::binary_op<tBcastOp>(), ditmk::compute::broadcast(tBcastDim), icb0, icb1,
                           itile0, itile1, idst);
}

template <BroadcastType tBcastDim>
ALWI void add_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0) {
  any_tiles_bcast<ELWADD, tBcastDim>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);
}

template <BroadcastType tBcastDim>
ALWI void sub_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0) {
  any_tiles_bcast<ELWSUB, tBcastDim>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);
}

template <BroadcastType tBcastDim>
ALWI void mul_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0) {
  any_tiles_bcast<ELWMUL, tBcastDim>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);
}

ALWI void add_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                               uint32_t bcast_row_idx = 0) {
  any_tiles_bcast<ELWADD, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);
}
ALWI void sub_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                               uint32_t bcast_row_idx = 0) {
  any_tiles_bcast<ELWSUB, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);
}
ALWI void mul_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                               uint32_t bcast_row_idx = 0) {
  any_tiles_bcast<ELWMUL, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);
}
ALWI void add_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
  any_tiles_bcast<ELWADD, BroadcastType::COL>(icb0, icb1, itile0, itile1, idst);
}
ALWI void sub_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
  any_tiles_bcast<ELWSUB, BroadcastType::COL>(icb0, icb1, itile0, itile1, idst);
}
ALWI void mul_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
  any_tiles_bcast<ELWMUL, BroadcastType::COL>(icb0, icb1, itile0, itile1, idst);
}
ALWI void add_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
  any_tiles_bcast<ELWADD, BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst);
}
ALWI void sub_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
  any_tiles_bcast<ELWSUB, BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst);
}
ALWI void mul_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
  any_tiles_bcast<ELWMUL, BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst);
}

namespace detail_bcast {
template <EltwiseBinaryType op, BroadcastType dim>
ALWI void init_short(uint32_t icb0, uint32_t icb1) {
  (void)icb0, (void)icb1;
  ditmk::compute::init(DITMK_INIT_BINARY, ditmk::compute::binary_op<op>(), ditmk::compute::broadcast(dim));
}
}  // namespace detail_bcast

ALWI void add_bcast_rows_init_short(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  detail_bcast::init_short<ELWADD, BroadcastType::ROW>(icb0, icb1);
}
ALWI void sub_bcast_rows_init_short(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  detail_bcast::init_short<ELWSUB, BroadcastType::ROW>(icb0, icb1);
}
ALWI void mul_bcast_rows_init_short(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  detail_bcast::init_short<ELWMUL, BroadcastType::ROW>(icb0, icb1);
}
ALWI void add_bcast_cols_init_short(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  detail_bcast::init_short<ELWADD, BroadcastType::COL>(icb0, icb1);
}
ALWI void sub_bcast_cols_init_short(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  detail_bcast::init_short<ELWSUB, BroadcastType::COL>(icb0, icb1);
}
ALWI void mul_bcast_cols_init_short(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  detail_bcast::init_short<ELWMUL, BroadcastType::COL>(icb0, icb1);
}
ALWI void add_bcast_scalar_init_short(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  detail_bcast::init_short<ELWADD, BroadcastType::SCALAR>(icb0, icb1);
}
ALWI void sub_tiles_bcast_scalar_init_short(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  detail_bcast::init_short<ELWSUB, BroadcastType::SCALAR>(icb0, icb1);
}
ALWI void mul_tiles_bcast_scalar_init_short(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  detail_bcast::init_short<ELWMUL, BroadcastType::SCALAR>(icb0, icb1);
}

// tt-metal 0.81.1's names of the same op inits (call_line is its LLK sanitizer's; ignored here).
template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim>
ALWI void bcast_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  (void)call_line;
  detail_bcast::init_short<tBcastOp, tBcastDim>(icb0, icb1);
}
ALWI void add_bcast_rows_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  bcast_init<ELWADD, BroadcastType::ROW>(icb0, icb1, call_line);
}
ALWI void sub_bcast_rows_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  bcast_init<ELWSUB, BroadcastType::ROW>(icb0, icb1, call_line);
}
ALWI void mul_bcast_rows_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  bcast_init<ELWMUL, BroadcastType::ROW>(icb0, icb1, call_line);
}
ALWI void add_bcast_cols_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  bcast_init<ELWADD, BroadcastType::COL>(icb0, icb1, call_line);
}
ALWI void sub_bcast_cols_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  bcast_init<ELWSUB, BroadcastType::COL>(icb0, icb1, call_line);
}
ALWI void mul_bcast_cols_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  bcast_init<ELWMUL, BroadcastType::COL>(icb0, icb1, call_line);
}
ALWI void add_bcast_scalar_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  bcast_init<ELWADD, BroadcastType::SCALAR>(icb0, icb1, call_line);
}
ALWI void sub_bcast_scalar_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  bcast_init<ELWSUB, BroadcastType::SCALAR>(icb0, icb1, call_line);
}
ALWI void mul_bcast_scalar_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
  bcast_init<ELWMUL, BroadcastType::SCALAR>(icb0, icb1, call_line);
}

}  // namespace ckernel
