#pragma once
// The tile size and data format of a CB. tt-metal compiles a kernel's CB formats into it (the JIT's
// per-CB arrays, DATA_FORMATS_DEFINED), so these are constant expressions for the CBs on the
// kernel's cores; ditmk's kernel compiler writes the same arrays from the program (jit_defines.hpp).
// A CB the arrays do not list is asked of the running program, which faults naming it when the core
// has no such CB.
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk/data_format.h"

namespace ditmk::detail {
constexpr bool in_cb_tables(const int32_t operand) { return operand >= 0 && operand < 64; }
}  // namespace ditmk::detail

constexpr int32_t get_tile_size(const int32_t operand) {
#ifdef DATA_FORMATS_DEFINED
  if (ditmk::detail::in_cb_tables(operand) && unpack_tile_size[operand] != 0) return int32_t(unpack_tile_size[operand]);
#endif
  return int32_t(ditmk::abi->get_tile_size(uint32_t(operand)));
}

constexpr DataFormat get_dataformat(const int32_t operand) {
#ifdef DATA_FORMATS_DEFINED
  if (ditmk::detail::in_cb_tables(operand) && unpack_src_format[operand] != 0xff) {
    return static_cast<DataFormat>(unpack_src_format[operand]);
  }
#endif
  return static_cast<DataFormat>(ditmk::abi->get_dataformat(uint32_t(operand)));
}

constexpr uint32_t get_tile_hw(const int32_t operand) {
  (void)operand;
  return 32 * 32;
}

constexpr uint32_t get_tile_num_faces(const int32_t operand) {
  (void)operand;
  return 4;
}
