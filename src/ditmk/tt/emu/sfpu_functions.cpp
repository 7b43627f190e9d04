#include "ditmk/tt/emu/sfpu_functions.hpp"

#include <cmath>

#include "ditmk/core/dtype.hpp"
#include "ditmk/tt/emu/compute_api.hpp"
#include "ditmk/tt/emu/timing_params.hpp"

namespace ditmk::tt::emu {

namespace {

// Each function is timed as the modelled function closest to it in SFPU work: the transcendental
// ones as exp or gelu, the one-instruction ones (sign, compare, move) as sqrt, the cheapest
// modelled pass, which over-counts them rather than inventing a figure.
double cycles(SfpuFunction function) {
  const TimingParams& tp = blackhole_timing();
  switch (function) {
    case SfpuFunction::sigmoid:
    case SfpuFunction::tanh:
    case SfpuFunction::gelu_erf: return tp.sfpu_gelu_cycles;
    case SfpuFunction::log:
    case SfpuFunction::sin:
    case SfpuFunction::cos:
    case SfpuFunction::tan:
    case SfpuFunction::rpow:
    case SfpuFunction::power: return tp.sfpu_exp_cycles;
    case SfpuFunction::rdiv:
    case SfpuFunction::div_scalar: return tp.sfpu_recip_cycles;
    case SfpuFunction::cbrt:
    case SfpuFunction::log1p: return tp.sfpu_exp_cycles;
    default: return tp.sfpu_sqrt_cycles;
  }
}

float truth(bool holds) { return holds ? 1.0f : 0.0f; }

float apply(SfpuFunction function, float x, float argument) {
  switch (function) {
    case SfpuFunction::sigmoid: return 1.0f / (1.0f + std::exp(-x));
    case SfpuFunction::tanh: return std::tanh(x);
    case SfpuFunction::log: return std::log(x);
    case SfpuFunction::abs: return std::fabs(x);
    case SfpuFunction::negative: return -x;
    case SfpuFunction::square: return x * x;
    case SfpuFunction::relu: return x > 0.0f ? x : 0.0f;
    case SfpuFunction::sin: return std::sin(x);
    case SfpuFunction::cos: return std::cos(x);
    case SfpuFunction::tan: return std::tan(x);
    case SfpuFunction::gelu_erf: return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f));
    case SfpuFunction::fill: return argument;
    case SfpuFunction::rpow: return std::pow(argument, x);
    case SfpuFunction::rdiv: return argument / x;
    case SfpuFunction::leaky_relu: return x < 0.0f ? x * argument : x;
    case SfpuFunction::power: return std::pow(x, argument);
    case SfpuFunction::round_bf16: return round_to_bf16(x);
    case SfpuFunction::identity: return x;
    case SfpuFunction::cbrt: return std::cbrt(x);
    case SfpuFunction::log1p: return std::log1p(x);
    case SfpuFunction::gtz: return truth(x > 0.0f);
    case SfpuFunction::nez: return truth(x != 0.0f);
    case SfpuFunction::gez: return truth(x >= 0.0f);
    case SfpuFunction::ltz: return truth(x < 0.0f);
    case SfpuFunction::eqz: return truth(x == 0.0f);
    case SfpuFunction::lez: return truth(x <= 0.0f);
    case SfpuFunction::add_scalar: return x + argument;
    case SfpuFunction::sub_scalar: return x - argument;
    case SfpuFunction::mul_scalar: return x * argument;
    case SfpuFunction::div_scalar: return x / argument;
    case SfpuFunction::rsub_scalar: return argument - x;
    case SfpuFunction::unary_ne: return truth(x != argument);
    case SfpuFunction::unary_eq: return truth(x == argument);
    case SfpuFunction::unary_gt: return truth(x > argument);
    case SfpuFunction::unary_ge: return truth(x >= argument);
    case SfpuFunction::unary_lt: return truth(x < argument);
    case SfpuFunction::unary_le: return truth(x <= argument);
    case SfpuFunction::sign: return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f;
  }
  return x;
}

}  // namespace

std::string_view sfpu_function_call(SfpuFunction function) {
  switch (function) {
    case SfpuFunction::sigmoid: return "sigmoid_tile";
    case SfpuFunction::tanh: return "tanh_tile";
    case SfpuFunction::log: return "log_tile";
    case SfpuFunction::abs: return "abs_tile";
    case SfpuFunction::negative: return "negative_tile";
    case SfpuFunction::square: return "square_tile";
    case SfpuFunction::relu: return "relu_tile";
    case SfpuFunction::sin: return "sin_tile";
    case SfpuFunction::cos: return "cos_tile";
    case SfpuFunction::tan: return "tan_tile";
    case SfpuFunction::gelu_erf: return "gelu_tile";
    case SfpuFunction::fill: return "fill_tile";
    case SfpuFunction::rpow: return "rpow_tile";
    case SfpuFunction::rdiv: return "rdiv_tile";
    case SfpuFunction::leaky_relu: return "leaky_relu_tile";
    case SfpuFunction::power: return "power_tile";
    case SfpuFunction::round_bf16: return "typecast_tile";
    case SfpuFunction::identity: return "identity_tile";
    case SfpuFunction::cbrt: return "cbrt_tile";
    case SfpuFunction::log1p: return "log1p_tile";
    case SfpuFunction::gtz: return "gtz_tile";
    case SfpuFunction::nez: return "nez_tile";
    case SfpuFunction::gez: return "gez_tile";
    case SfpuFunction::ltz: return "ltz_tile";
    case SfpuFunction::eqz: return "eqz_tile";
    case SfpuFunction::lez: return "lez_tile";
    case SfpuFunction::add_scalar: return "add_unary_tile";
    case SfpuFunction::sub_scalar: return "sub_unary_tile";
    case SfpuFunction::mul_scalar: return "mul_unary_tile";
    case SfpuFunction::div_scalar: return "div_unary_tile";
    case SfpuFunction::rsub_scalar: return "rsub_unary_tile";
    case SfpuFunction::unary_ne: return "unary_ne_tile";
    case SfpuFunction::unary_eq: return "unary_eq_tile";
    case SfpuFunction::unary_gt: return "unary_gt_tile";
    case SfpuFunction::unary_ge: return "unary_ge_tile";
    case SfpuFunction::unary_lt: return "unary_lt_tile";
    case SfpuFunction::unary_le: return "unary_le_tile";
    case SfpuFunction::sign: return "sign_tile";
  }
  return "an SFPU call";
}

void sfpu_function_tile(SfpuFunction function, uint32_t dst, float argument) {
  sfpu_pass(dst, sfpu_function_call(function), cycles(function),
            [function, argument](float x) { return apply(function, x, argument); });
}

}  // namespace ditmk::tt::emu
