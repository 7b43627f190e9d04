#pragma once
// The SFPU's functions of two DST tiles (tt-metal's eltwise_binary_sfpu.h and binary_max_min.h):
// each maps a pair of DST values to one value, in fp32, as the function itself. The comparisons give
// 1.0 where they hold and 0.0 elsewhere, as the chip's SFPU writes them.
#include <cstdint>
#include <string_view>

namespace ditmk::tt::emu {

enum class SfpuBinaryFunction {
  add,
  sub,
  mul,
  div,
  rsub,   // in1 - in0
  power,  // in0 ** in1
  eq,
  ne,
  lt,
  gt,
  le,
  ge,
  max,
  min,
  copy,         // in0 (copy_dest_values)
  mask,         // in0, or 0 where in1 is 0 (mask_tile)
  mask_posinf,  // in0, or +inf where in1 is 0 (mask_posinf_tile)
};

// The call's name as tt-metal spells it ("add_binary_tile", "binary_max_tile", ...), for fault messages.
std::string_view sfpu_binary_function_call(SfpuBinaryFunction function);

// The function of one pair of values: the emulator's definition, and the reference its tests compare
// against.
float sfpu_binary_value(SfpuBinaryFunction function, float in0, float in1);

// DST[odst] = function(DST[dst0], DST[dst1]) element-wise.
void sfpu_binary_function_tile(SfpuBinaryFunction function, uint32_t dst0, uint32_t dst1, uint32_t odst);

}  // namespace ditmk::tt::emu
