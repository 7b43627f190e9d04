#pragma once
// Element-wise maximum and minimum of two DST tiles into a third, in fp32, each after its own init.
// The int32 and uint32 forms work on integer values in DST, which are not modelled: they fault
// naming themselves.
#include "api/compute/common.h"
#include "ditmk/compute.h"

namespace ckernel {

ALWI void binary_max_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_MAX); }
ALWI void binary_max_tile(uint32_t idst0, uint32_t idst1, uint32_t odst,
                          VectorMode vector_mode = VectorMode::RC) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_MAX, idst0, idst1, odst, vector_mode, "binary_max_tile");
}
ALWI void binary_min_tile_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_MIN); }
ALWI void binary_min_tile(uint32_t idst0, uint32_t idst1, uint32_t odst,
                          VectorMode vector_mode = VectorMode::RC) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_MIN, idst0, idst1, odst, vector_mode, "binary_min_tile");
}

#define DITMK_SFPU_INTEGER_BINARY(name)                                                      \
  ALWI void name##_tile_init() { ditmk::compute::integer_dst_call(#name "_tile_init"); }     \
  ALWI void name##_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {                    \
    (void)idst0, (void)idst1, (void)odst;                                                   \
    ditmk::compute::integer_dst_call(#name "_tile");                                        \
  }

DITMK_SFPU_INTEGER_BINARY(binary_max_int32)
DITMK_SFPU_INTEGER_BINARY(binary_max_uint32)
DITMK_SFPU_INTEGER_BINARY(binary_min_int32)
DITMK_SFPU_INTEGER_BINARY(binary_min_uint32)

#undef DITMK_SFPU_INTEGER_BINARY

}  // namespace ckernel
