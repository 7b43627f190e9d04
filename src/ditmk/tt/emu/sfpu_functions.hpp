#pragma once
// The element-wise family's SFPU functions beyond compute_api.hpp's first six: each maps one DST
// value to one value, in fp32, as the function itself (the chip's approximate modes compute the
// function less exactly; the emulator computes it exactly whichever mode a kernel asks for, which
// bf16 tolerances cover).
#include <cstdint>
#include <string_view>

namespace ditmk::tt::emu {

enum class SfpuFunction {
  sigmoid,
  tanh,
  log,
  abs,
  negative,
  square,
  relu,
  sin,
  cos,
  tan,
  gelu_erf,    // x * Phi(x), the erf form of GELU
  fill,        // every value becomes the argument
  rpow,        // argument ** x
  rdiv,        // argument / x
  leaky_relu,  // x, or x * argument where x < 0
  power,       // x ** argument
  round_bf16,  // a typecast to bf16 inside DST: round to nearest even, as the packer rounds
  identity,    // x unchanged (identity_tile: the SFPU loads each value and stores it back)
  cbrt,
  log1p,       // log(1 + x)
  gtz,         // the comparisons with zero and with the argument: 1.0 where they hold, else 0.0
  nez,
  gez,
  ltz,
  eqz,
  lez,
  add_scalar,  // x + argument
  sub_scalar,  // x - argument
  mul_scalar,  // x * argument
  div_scalar,  // x / argument
  rsub_scalar, // argument - x
  unary_ne,
  unary_eq,
  unary_gt,
  unary_ge,
  unary_lt,
  unary_le,
  sign,        // -1, 0 or 1
};

// The call's name as tt-metal spells it ("sigmoid_tile", ...), for fault messages.
std::string_view sfpu_function_call(SfpuFunction function);

// DST[dst] = function(DST[dst]) element-wise; `argument` is the op's scalar (fill's value, rpow's
// base, ...), unused by the functions that take none.
void sfpu_function_tile(SfpuFunction function, uint32_t dst, float argument = 0.0f);

}  // namespace ditmk::tt::emu
