#pragma once
// The tile size and data format of a CB, which tt-metal compiles into a data-movement kernel from
// its program and the emulator reads from the running program's CB.
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk/data_format.h"

FORCE_INLINE int32_t get_tile_size(const int32_t operand) {
  return int32_t(ditmk::abi->get_tile_size(uint32_t(operand)));
}

FORCE_INLINE DataFormat get_dataformat(const int32_t operand) {
  return static_cast<DataFormat>(ditmk::abi->get_dataformat(uint32_t(operand)));
}

FORCE_INLINE uint32_t get_tile_hw(const int32_t operand) {
  (void)operand;
  return 32 * 32;
}

FORCE_INLINE uint32_t get_tile_num_faces(const int32_t operand) {
  (void)operand;
  return 4;
}
