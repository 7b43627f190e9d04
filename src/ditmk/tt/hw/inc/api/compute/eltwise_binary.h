#pragma once
// Element-wise add, sub and mul of two CB tiles into DST[idst]. binary_op_init_common configures
// the hardware; add_tiles_init / sub_tiles_init / mul_tiles_init (or binary_tiles_init) pick the op,
// and a binary call faults unless the last op init picked that op without broadcast. acc_to_dest is
// accepted and ignored: the result replaces DST[idst].
#include "api/compute/common.h"
#include "ditmk/compute.h"
// the LLK calls 0.81.1's header brings in, which kernels (ttnn's kernel_lib) call directly
#include "llk_math_binary_api.h"
#include "llk_unpack_AB_api.h"

namespace ckernel {

ALWI void binary_op_init_common(uint32_t icb0, uint32_t icb1, uint32_t ocb = 16) {
  (void)icb0, (void)icb1, (void)ocb;
  ditmk::compute::init(DITMK_INIT_HW);
}

template <bool full_init, EltwiseBinaryType eltwise_binary_type>
ALWI void binary_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false) {
  (void)icb0, (void)icb1, (void)acc_to_dest;
  ditmk::compute::init(DITMK_INIT_BINARY, ditmk::compute::binary_op<eltwise_binary_type>(), DITMK_BCAST_NONE);
}

// The older form of binary_tiles_init.
template <bool full_init, EltwiseBinaryType eltwise_binary_op_type>
ALWI void binary_op_specific_init(uint32_t icb0 = 0, uint32_t icb1 = 1) {
  binary_tiles_init<full_init, eltwise_binary_op_type>(icb0, icb1);
}

ALWI void mul_tiles_init(uint32_t icb0 = 0, uint32_t icb1 = 1, uint32_t acc_to_dest = 0) {
  binary_tiles_init<true, ELWMUL>(icb0, icb1, acc_to_dest != 0);
}

ALWI void add_tiles_init(uint32_t icb0 = 0, uint32_t icb1 = 1, bool acc_to_dest = false) {
  binary_tiles_init<true, ELWADD>(icb0, icb1, acc_to_dest);
}

ALWI void sub_tiles_init(uint32_t icb0 = 0, uint32_t icb1 = 1, bool acc_to_dest = false) {
  binary_tiles_init<true, ELWSUB>(icb0, icb1, acc_to_dest);
}

// tt-metal 0.81.1's names of the same inits (call_line is its LLK sanitizer's; ignored here).
ALWI void add_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t call_line = __builtin_LINE()) {
  (void)call_line;
  binary_tiles_init<true, ELWADD>(icb0, icb1, acc_to_dest);
}
ALWI void sub_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t call_line = __builtin_LINE()) {
  (void)call_line;
  binary_tiles_init<true, ELWSUB>(icb0, icb1, acc_to_dest);
}
ALWI void mul_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = true, uint32_t call_line = __builtin_LINE()) {
  (void)call_line;
  binary_tiles_init<true, ELWMUL>(icb0, icb1, acc_to_dest);
}

// Older names of the same inits.
ALWI void mul_tiles_init_f() { mul_tiles_init(); }
ALWI void add_tiles_init_nof() { add_tiles_init(); }
ALWI void sub_tiles_init_nof() { sub_tiles_init(); }

ALWI void mul_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
  ditmk::abi->binary_tiles(DITMK_BINARY_MUL, DITMK_BCAST_NONE, icb0, icb1, itile0, itile1, idst);
}

ALWI void add_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
  ditmk::abi->binary_tiles(DITMK_BINARY_ADD, DITMK_BCAST_NONE, icb0, icb1, itile0, itile1, idst);
}

ALWI void sub_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
  ditmk::abi->binary_tiles(DITMK_BINARY_SUB, DITMK_BCAST_NONE, icb0, icb1, itile0, itile1, idst);
}

// Dest-reuse binaries (0.81.1): one operand is the tile already in DST[dst_tile_index], the other
// tile `in_tile_index` of in_cb_id; the result replaces DST[dst_tile_index]. DEST_TO_SRCA makes DST's
// tile the first operand (DST - cb), DEST_TO_SRCB the second (cb - DST). Each needs its own init
// with the same reuse_dest.
namespace ditmk_reuse_dest_detail {
template <EltwiseBinaryType type, EltwiseBinaryReuseDestType reuse_dest>
ALWI void init() {
  static_assert(reuse_dest != EltwiseBinaryReuseDestType::NONE,
                "reuse_dest must be DEST_TO_SRCA or DEST_TO_SRCB; the two-CB op has its own init");
  ditmk::compute::init(DITMK_INIT_BINARY_REUSE_DEST, ditmk::compute::binary_op<type>(), uint32_t(reuse_dest));
}
template <EltwiseBinaryType type, EltwiseBinaryReuseDestType reuse_dest>
ALWI void tiles(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
  static_assert(reuse_dest != EltwiseBinaryReuseDestType::NONE,
                "reuse_dest must be DEST_TO_SRCA or DEST_TO_SRCB; the two-CB op is add_tiles / sub_tiles / mul_tiles");
  ditmk::abi->binary_reuse_dest_tile(ditmk::compute::binary_op<type>(), uint32_t(reuse_dest), in_cb_id,
                                     in_tile_index, dst_tile_index);
}
}  // namespace ditmk_reuse_dest_detail

template <EltwiseBinaryReuseDestType reuse_dest>
ALWI void add_reuse_dest_init(uint32_t icb, uint32_t call_line = __builtin_LINE()) {
  (void)icb, (void)call_line;
  ditmk_reuse_dest_detail::init<ELWADD, reuse_dest>();
}
template <EltwiseBinaryReuseDestType reuse_dest>
ALWI void sub_reuse_dest_init(uint32_t icb, uint32_t call_line = __builtin_LINE()) {
  (void)icb, (void)call_line;
  ditmk_reuse_dest_detail::init<ELWSUB, reuse_dest>();
}
template <EltwiseBinaryReuseDestType reuse_dest>
ALWI void mul_reuse_dest_init(uint32_t icb, uint32_t call_line = __builtin_LINE()) {
  (void)icb, (void)call_line;
  ditmk_reuse_dest_detail::init<ELWMUL, reuse_dest>();
}

template <EltwiseBinaryReuseDestType reuse_dest, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_reuse_dest_tiles(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
  ditmk_reuse_dest_detail::tiles<ELWADD, reuse_dest>(in_cb_id, in_tile_index, dst_tile_index);
}
template <EltwiseBinaryReuseDestType reuse_dest, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_reuse_dest_tiles(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
  ditmk_reuse_dest_detail::tiles<ELWSUB, reuse_dest>(in_cb_id, in_tile_index, dst_tile_index);
}
template <EltwiseBinaryReuseDestType reuse_dest, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_reuse_dest_tiles(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
  ditmk_reuse_dest_detail::tiles<ELWMUL, reuse_dest>(in_cb_id, in_tile_index, dst_tile_index);
}

}  // namespace ckernel
