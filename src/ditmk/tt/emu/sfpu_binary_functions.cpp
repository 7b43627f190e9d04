#include "ditmk/tt/emu/sfpu_binary_functions.hpp"

#include <cmath>
#include <limits>

#include "ditmk/tt/emu/compute_api.hpp"
#include "ditmk/tt/emu/timing_params.hpp"

namespace ditmk::tt::emu {

namespace {

// Timed as the modelled unary pass closest in SFPU work (sfpu_functions.cpp): division as a
// reciprocal, power as exp, the rest (one add, multiply, compare or select per value) as sqrt, the
// cheapest modelled pass.
double cycles(SfpuBinaryFunction function) {
  const TimingParams& tp = blackhole_timing();
  switch (function) {
    case SfpuBinaryFunction::div: return tp.sfpu_recip_cycles;
    case SfpuBinaryFunction::power: return tp.sfpu_exp_cycles;
    default: return tp.sfpu_sqrt_cycles;
  }
}

float truth(bool holds) { return holds ? 1.0f : 0.0f; }

}  // namespace

std::string_view sfpu_binary_function_call(SfpuBinaryFunction function) {
  switch (function) {
    case SfpuBinaryFunction::add: return "add_binary_tile";
    case SfpuBinaryFunction::sub: return "sub_binary_tile";
    case SfpuBinaryFunction::mul: return "mul_binary_tile";
    case SfpuBinaryFunction::div: return "div_binary_tile";
    case SfpuBinaryFunction::rsub: return "rsub_binary_tile";
    case SfpuBinaryFunction::power: return "power_binary_tile";
    case SfpuBinaryFunction::eq: return "eq_binary_tile";
    case SfpuBinaryFunction::ne: return "ne_binary_tile";
    case SfpuBinaryFunction::lt: return "lt_binary_tile";
    case SfpuBinaryFunction::gt: return "gt_binary_tile";
    case SfpuBinaryFunction::le: return "le_binary_tile";
    case SfpuBinaryFunction::ge: return "ge_binary_tile";
    case SfpuBinaryFunction::max: return "binary_max_tile";
    case SfpuBinaryFunction::min: return "binary_min_tile";
    case SfpuBinaryFunction::copy: return "copy_dest_values";
    case SfpuBinaryFunction::mask: return "mask_tile";
    case SfpuBinaryFunction::mask_posinf: return "mask_posinf_tile";
  }
  return "an SFPU binary call";
}

float sfpu_binary_value(SfpuBinaryFunction function, float in0, float in1) {
  switch (function) {
    case SfpuBinaryFunction::add: return in0 + in1;
    case SfpuBinaryFunction::sub: return in0 - in1;
    case SfpuBinaryFunction::mul: return in0 * in1;
    case SfpuBinaryFunction::div: return in0 / in1;
    case SfpuBinaryFunction::rsub: return in1 - in0;
    case SfpuBinaryFunction::power: return std::pow(in0, in1);
    case SfpuBinaryFunction::eq: return truth(in0 == in1);
    case SfpuBinaryFunction::ne: return truth(in0 != in1);
    case SfpuBinaryFunction::lt: return truth(in0 < in1);
    case SfpuBinaryFunction::gt: return truth(in0 > in1);
    case SfpuBinaryFunction::le: return truth(in0 <= in1);
    case SfpuBinaryFunction::ge: return truth(in0 >= in1);
    case SfpuBinaryFunction::max: return in0 > in1 ? in0 : in1;
    case SfpuBinaryFunction::min: return in0 < in1 ? in0 : in1;
    case SfpuBinaryFunction::copy: return in0;
    case SfpuBinaryFunction::mask: return in1 == 0.0f ? 0.0f : in0;
    case SfpuBinaryFunction::mask_posinf: return in1 == 0.0f ? std::numeric_limits<float>::infinity() : in0;
  }
  return in0;
}

void sfpu_binary_function_tile(SfpuBinaryFunction function, uint32_t dst0, uint32_t dst1, uint32_t odst) {
  sfpu_binary_pass(dst0, dst1, odst, sfpu_binary_function_call(function), cycles(function),
                   [function](float in0, float in1) { return sfpu_binary_value(function, in0, in1); });
}

}  // namespace ditmk::tt::emu
