#pragma once
// The SFPU's element-wise ops of two DST tiles: DST[odst] = DST[idst0] op DST[idst1], in fp32 (the
// comparisons write 1.0 where they hold, 0.0 elsewhere). Each call runs after its own init. The
// template options (fp32 DST accumulation, how a result is narrowed into a bf16 DST) do not change
// the emulator's result: its DST holds fp32 values and the packer rounds.
#include "api/compute/common.h"
#include "ckernel_defs.h"
#include "ditmk/compute.h"

namespace ckernel {

// a + b
ALWI void add_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_ADD); }
template <ckernel::DstRoundingMode dst_rounding_mode = ckernel::DstRoundingMode::Default,
          bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_ADD, idst0, idst1, odst, VectorMode::RC, "add_binary_tile");
}

// a - b
ALWI void sub_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_SUB); }
template <ckernel::DstRoundingMode dst_rounding_mode = ckernel::DstRoundingMode::Default,
          bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_SUB, idst0, idst1, odst, VectorMode::RC, "sub_binary_tile");
}

// b - a
ALWI void rsub_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_RSUB); }
template <ckernel::DstRoundingMode dst_rounding_mode = ckernel::DstRoundingMode::Default,
          bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rsub_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_RSUB, idst0, idst1, odst, VectorMode::RC, "rsub_binary_tile");
}

// a * b
ALWI void mul_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_MUL); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_MUL, idst0, idst1, odst, VectorMode::RC, "mul_binary_tile");
}

// a / b
ALWI void div_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_DIV); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void div_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_DIV, idst0, idst1, odst, VectorMode::RC, "div_binary_tile");
}

// a ** b
ALWI void power_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_POWER); }
template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void power_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_POWER, idst0, idst1, odst, VectorMode::RC, "power_binary_tile");
}

// a == b
ALWI void eq_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_EQ); }
ALWI void eq_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_EQ, idst0, idst1, odst, VectorMode::RC, "eq_binary_tile");
}

// a != b
ALWI void ne_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_NE); }
ALWI void ne_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_NE, idst0, idst1, odst, VectorMode::RC, "ne_binary_tile");
}

// a < b
ALWI void lt_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_LT); }
ALWI void lt_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_LT, idst0, idst1, odst, VectorMode::RC, "lt_binary_tile");
}

// a > b
ALWI void gt_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_GT); }
ALWI void gt_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_GT, idst0, idst1, odst, VectorMode::RC, "gt_binary_tile");
}

// a <= b
ALWI void le_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_LE); }
ALWI void le_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_LE, idst0, idst1, odst, VectorMode::RC, "le_binary_tile");
}

// a >= b
ALWI void ge_binary_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_GE); }
ALWI void ge_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_GE, idst0, idst1, odst, VectorMode::RC, "ge_binary_tile");
}

}  // namespace ckernel
