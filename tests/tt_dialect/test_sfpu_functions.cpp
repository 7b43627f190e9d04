// The element-wise family's SFPU calls, run as ttnn's unary factory runs them: a tile copied into
// DST, the SFPU_OP_CHAIN_0 define ttnn writes for the op, the result packed to bf16; checked against
// the function in double precision with bf16 tolerances. Calls the emulator does not model fault
// naming themselves. Also unary_bcast, the broadcast binary_ng's kernels run on its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/dtype.hpp"
#include "ditmk/tt/host_api/host_api.hpp"
#include "ditmk/tt/emu/sfpu_binary_functions.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kPage = 2048;  // a bf16 tile
constexpr uint32_t kTiles = 2;
constexpr uint32_t kValues = kTiles * kPage / 2;

struct Chained {
  emu::LaunchReport report;
  std::vector<float> in, out;
};

// `values` (kValues of them, rounded to bf16) through a compute kernel of this folder on one core:
// DRAM -> CB 0 -> the kernel -> CB 16 -> DRAM.
Chained run_compute(const std::string& kernel, const std::vector<std::pair<std::string, std::string>>& defines,
                    const std::function<double(uint32_t)>& values) {
  HostDevice device(fs::path(ditmk::build::binary_dir()) / "kernel-cache-tests");
  auto src = CreateBuffer(device, {kTiles * kPage, kPage, DataFormat::float16_b, "src"});
  auto dst = CreateBuffer(device, {kTiles * kPage, kPage, DataFormat::float16_b, "dst"});
  Chained c;
  std::vector<std::byte> bytes;
  for (uint32_t k = 0; k < kValues; ++k) {
    const float v = round_to_bf16(float(values(k)));
    c.in.push_back(v);
    const uint16_t bits = f32_to_bf16(v);
    bytes.push_back(std::byte(bits & 0xFF));
    bytes.push_back(std::byte(bits >> 8));
  }
  EnqueueWriteBuffer(device, *src, bytes);
  Program program = CreateProgram();
  const CoreRangeSet core = {{{0, 0}, {0, 0}}};
  const fs::path tests = fs::path(ditmk::build::source_dir()) / "tests/tt_dialect";
  const KernelHandle reader =
      CreateKernel(program, tests / "silicon_kernels/read_pages.cpp", core, ReaderDataMovementConfig{});
  const KernelHandle writer =
      CreateKernel(program, tests / "silicon_kernels/write_pages.cpp", core, WriterDataMovementConfig{});
  ComputeConfig compute;
  compute.compile_args = {kTiles};
  compute.defines = defines;
  CreateKernel(program, tests / "kernels" / kernel, core, compute);
  CreateCircularBuffer(program, core, {.total_size = 2 * kPage, .buffer_index = 0, .page_size = kPage});
  CreateCircularBuffer(program, core, {.total_size = 2 * kPage, .buffer_index = 16, .page_size = kPage});
  SetRuntimeArgs(program, reader, {0, 0}, {src->address(), kTiles});
  SetRuntimeArgs(program, writer, {0, 0}, {dst->address(), kTiles});
  c.report = EnqueueProgram(device, program);
  if (!c.report.clean()) return c;
  std::vector<std::byte> out;
  EnqueueReadBuffer(device, *dst, out);
  for (uint32_t k = 0; k < kValues; ++k) {
    c.out.push_back(bf16_to_f32(uint16_t(uint16_t(out[2 * k]) | uint16_t(out[2 * k + 1]) << 8)));
  }
  return c;
}

// Values evenly spread over [lo, hi].
Chained run_compute(const std::string& kernel, const std::vector<std::pair<std::string, std::string>>& defines,
                    double lo, double hi) {
  return run_compute(kernel, defines, [lo, hi](uint32_t k) { return lo + (hi - lo) * k / (kValues - 1); });
}

// The chain `init func` as ttnn's unary factory writes it: the op's init and call, each its own define.
Chained run_chain(const std::string& init, const std::string& func, double lo, double hi) {
  return run_compute("sfpu_chain.cpp",
                     {{"SFPU_OP_CHAIN_0", "SFPU_OP_CHAIN_0_INIT_0 SFPU_OP_CHAIN_0_FUNC_0"},
                      {"SFPU_OP_CHAIN_0_INIT_0", init},
                      {"SFPU_OP_CHAIN_0_FUNC_0", func}},
                     lo, hi);
}

std::string first_fault(const emu::LaunchReport& report) {
  return report.faults.empty() ? "" : emu::to_string(report.faults.front());
}

struct SfpuCase {
  std::string name, init, func;
  double lo, hi;
  std::function<double(double)> reference;
};

void PrintTo(const SfpuCase& c, std::ostream* os) { *os << c.name; }

class SfpuFunctions : public ::testing::TestWithParam<SfpuCase> {};

TEST_P(SfpuFunctions, MatchTheFunctionWithinBf16Tolerance) {
  const SfpuCase& p = GetParam();
  const Chained c = run_chain(p.init, p.func, p.lo, p.hi);
  ASSERT_TRUE(c.report.clean()) << first_fault(c.report);
  ASSERT_EQ(c.out.size(), c.in.size());
  int bad = 0;
  for (size_t k = 0; k < c.in.size(); ++k) {
    const double want = p.reference(c.in[k]);
    if (std::fabs(c.out[k] - want) > 1e-2 + 1e-2 * std::fabs(want) && bad++ < 5) {
      ADD_FAILURE() << p.name << "(" << c.in[k] << ") = " << c.out[k] << ", want " << want;
    }
  }
  EXPECT_EQ(bad, 0);
}

double gelu_tanh(double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }
double gelu_erf(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

INSTANTIATE_TEST_SUITE_P(
    Unary, SfpuFunctions,
    ::testing::Values(
        SfpuCase{"exp", "exp_tile_init<1u>();", "exp_tile<1u>(0);", -4, 4, [](double x) { return std::exp(x); }},
        SfpuCase{"gelu_approx", "gelu_tile_init<1u>();", "gelu_tile<1u>(0);", -4, 4, gelu_tanh},
        SfpuCase{"gelu_accurate", "gelu_tile_init<0u>();", "gelu_tile<0u>(0);", -4, 4, gelu_erf},
        SfpuCase{"recip", "recip_tile_init();", "recip_tile(0);", 0.25, 4, [](double x) { return 1 / x; }},
        SfpuCase{"sqrt", "sqrt_tile_init();", "sqrt_tile(0);", 0, 16, [](double x) { return std::sqrt(x); }},
        SfpuCase{"rsqrt", "rsqrt_tile_init();", "rsqrt_tile(0);", 0.25, 16,
                 [](double x) { return 1 / std::sqrt(x); }},
        SfpuCase{"sigmoid", "sigmoid_tile_init();", "sigmoid_tile(0);", -6, 6,
                 [](double x) { return 1 / (1 + std::exp(-x)); }},
        SfpuCase{"sigmoid_rc", "sigmoid_tile_init<false>();", "sigmoid_tile<VectorMode::RC, false>(0);", -6, 6,
                 [](double x) { return 1 / (1 + std::exp(-x)); }},
        SfpuCase{"tanh", "tanh_tile_init();", "tanh_tile(0);", -3, 3, [](double x) { return std::tanh(x); }},
        SfpuCase{"log", "log_tile_init();", "log_tile(0);", 0.1, 10, [](double x) { return std::log(x); }},
        SfpuCase{"abs", "abs_tile_init();", "abs_tile(0);", -4, 4, [](double x) { return std::fabs(x); }},
        SfpuCase{"negative", "negative_tile_init();", "negative_tile(0);", -4, 4, [](double x) { return -x; }},
        SfpuCase{"identity", "identity_tile_init();", "identity_tile(0);", -4, 4, [](double x) { return x; }},
        SfpuCase{"sign", "sign_tile_init();", "sign_tile(0);", -4, 4,
                 [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }},
        // power_iterative_tile's exponent is the integer itself, not fp32 bits
        SfpuCase{"power_iterative", "power_iterative_tile_init();", "power_iterative_tile(0, 3u);", -2, 2,
                 [](double x) { return x * x * x; }},
        SfpuCase{"cbrt", "cbrt_tile_init();", "cbrt_tile(0);", -8, 8, [](double x) { return std::cbrt(x); }},
        SfpuCase{"log1p", "log1p_tile_init();", "log1p_tile(0);", -0.5, 4, [](double x) { return std::log1p(x); }},
        SfpuCase{"gtz", "gtz_tile_init();", "gtz_tile(0);", -4, 4, [](double x) { return x > 0 ? 1.0 : 0.0; }},
        SfpuCase{"nez", "nez_tile_init();", "nez_tile(0);", -4, 4, [](double x) { return x != 0 ? 1.0 : 0.0; }},
        SfpuCase{"gez", "gez_tile_init();", "gez_tile(0);", -4, 4, [](double x) { return x >= 0 ? 1.0 : 0.0; }},
        SfpuCase{"ltz", "ltz_tile_init();", "ltz_tile(0);", -4, 4, [](double x) { return x < 0 ? 1.0 : 0.0; }},
        SfpuCase{"eqz", "eqz_tile_init();", "eqz_tile(0);", -4, 4, [](double x) { return x == 0 ? 1.0 : 0.0; }},
        SfpuCase{"lez", "lez_tile_init();", "lez_tile(0);", -4, 4, [](double x) { return x <= 0 ? 1.0 : 0.0; }},
        // binop_with_scalar and the comparisons with a scalar take it as fp32 bits (1.5: 0x3fc00000)
        SfpuCase{"add_unary", "binop_with_scalar_tile_init();", "add_unary_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x + 1.5; }},
        SfpuCase{"sub_unary", "binop_with_scalar_tile_init();", "sub_unary_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x - 1.5; }},
        SfpuCase{"mul_unary", "binop_with_scalar_tile_init();", "mul_unary_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x * 1.5; }},
        SfpuCase{"div_unary", "binop_with_scalar_tile_init();", "div_unary_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x / 1.5; }},
        SfpuCase{"rsub_unary", "binop_with_scalar_tile_init();", "rsub_unary_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return 1.5 - x; }},
        SfpuCase{"unary_gt", "unary_gt_tile_init();", "unary_gt_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x > 1.5 ? 1.0 : 0.0; }},
        SfpuCase{"unary_ge", "unary_ge_tile_init();", "unary_ge_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x >= 1.5 ? 1.0 : 0.0; }},
        SfpuCase{"unary_lt", "unary_lt_tile_init();", "unary_lt_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x < 1.5 ? 1.0 : 0.0; }},
        SfpuCase{"unary_le", "unary_le_tile_init();", "unary_le_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x <= 1.5 ? 1.0 : 0.0; }},
        SfpuCase{"unary_eq", "unary_eq_tile_init();", "unary_eq_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x == 1.5 ? 1.0 : 0.0; }},
        SfpuCase{"unary_ne", "unary_ne_tile_init();", "unary_ne_tile(0, 0x3fc00000u);", -4, 4,
                 [](double x) { return x != 1.5 ? 1.0 : 0.0; }},
        SfpuCase{"square", "square_tile_init();", "square_tile(0);", -4, 4, [](double x) { return x * x; }},
        SfpuCase{"relu", "relu_tile_init();", "relu_tile(0);", -4, 4, [](double x) { return x > 0 ? x : 0; }},
        SfpuCase{"silu", "silu_tile_init();", "silu_tile(0);", -4, 4, [](double x) { return x / (1 + std::exp(-x)); }},
        SfpuCase{"sin", "sin_tile_init();", "sin_tile(0);", -3, 3, [](double x) { return std::sin(x); }},
        SfpuCase{"cos", "cos_tile_init();", "cos_tile(0);", -3, 3, [](double x) { return std::cos(x); }},
        SfpuCase{"tan", "tan_tile_init();", "tan_tile(0);", -1, 1, [](double x) { return std::tan(x); }},
        // the scalar ops take their argument as fp32 bits, as ttnn writes them
        SfpuCase{"fill", "fill_tile_init();", "fill_tile_bitcast(0, 0x40490fdbu);", -4, 4,
                 [](double) { return 3.14159265; }},
        SfpuCase{"rpow", "rpow_tile_init();", "rpow_tile(0, 0x40000000u);", -3, 3,
                 [](double x) { return std::pow(2.0, x); }},
        SfpuCase{"rdiv", "rdiv_tile_init();", "rdiv_tile(0, 0x40400000u);", 0.5, 4, [](double x) { return 3 / x; }},
        SfpuCase{"leaky_relu", "leaky_relu_tile_init();", "leaky_relu_tile(0, 0x3dcccccdu);", -4, 4,
                 [](double x) { return x < 0 ? 0.1 * x : x; }},
        SfpuCase{"power", "power_tile_init();", "power_tile(0, 0x40400000u);", -2, 2,
                 [](double x) { return x * x * x; }},
        // fp32 -> bf16 inside DST: the bf16 input comes back as it went in
        SfpuCase{"typecast_fp32_bf16", "typecast_tile_init<0u, 5u>();", "typecast_tile<0u, 5u>(0);", -4, 4,
                 [](double x) { return x; }},
        // bf16 -> Int32 -> bf16: the integer words in DST truncate toward zero
        SfpuCase{"typecast_bf16_int32_bf16", "typecast_tile_init<5u, 8u>();",
                 "typecast_tile<5u, 8u>(0); typecast_tile<8u, 5u>(0);", -40, 40,
                 [](double x) { return std::trunc(x); }}),
    [](const ::testing::TestParamInfo<SfpuCase>& info) { return info.param.name; });

TEST(SfpuFunctionFaults, UnmodelledIntegerTypecastsAreNamed) {
  for (const std::string formats : {"5u, 9u", "8u, 24u"}) {  // to UInt16; Int32 to UInt32
    const Chained c =
        run_chain("typecast_tile_init<" + formats + ">();", "typecast_tile<" + formats + ">(0);", -4, 4);
    ASSERT_EQ(c.report.faults.size(), 1u) << formats;
    EXPECT_NE(first_fault(c.report).find("integer values in DST are modelled as Int32 and UInt32 words only"),
              std::string::npos)
        << first_fault(c.report);
  }
}

TEST(SfpuFunctionFaults, IntegerMultiplyIsNamed) {
  const Chained c =
      run_chain("mul_int_tile_init<DataFormat::Int32>();", "mul_int_tile<DataFormat::Int32>(0, 0, 0);", -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("mul_int_tile_init: integer values in DST are not modelled"),
            std::string::npos)
      << first_fault(c.report);
}

TEST(SfpuFunctionFaults, IntegerIdentityAndNegativeAreNamed) {
  for (const std::string call : {"identity_tile_uint32", "negative_tile_int32"}) {
    const Chained c = run_chain("identity_tile_init();", call + "(0);", -4, 4);
    ASSERT_EQ(c.report.faults.size(), 1u) << call;
    EXPECT_NE(first_fault(c.report).find(call + ": integer values in DST are not modelled"), std::string::npos)
        << first_fault(c.report);
  }
}

TEST(SfpuFunctionFaults, CallWithoutItsInitIsNamed) {
  const Chained c = run_chain("exp_tile_init();", "sigmoid_tile(0);", -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("sigmoid_tile: sigmoid_tile_init has not run"), std::string::npos)
      << first_fault(c.report);
}

TEST(SfpuFunctionFaults, GeluModesMustAgree) {
  const Chained c = run_chain("gelu_tile_init<1u>();", "gelu_tile<0u>(0);", -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("gelu_tile: gelu_tile_init has not run"), std::string::npos)
      << first_fault(c.report);
}

// The binary SFPU ops: DST 0 and DST 1 hold two tiles whose values cross (the first rising over
// [lo, hi], the second falling, every fourth value equal to the first), `init call` runs, and
// DST[result] comes out beside DST 1. Checked against sfpu_binary_value's function of the pair in
// double precision, and DST 1 must come out unchanged.
struct SfpuBinaryCase {
  std::string name, init, call;
  uint32_t result;
  double lo, hi;
  std::function<double(double, double)> reference;
  bool zeros = false;  // every third value of the second tile 0 (a mask's)
};

void PrintTo(const SfpuBinaryCase& c, std::ostream* os) { *os << c.name; }

Chained run_binary(const std::string& init, const std::string& call, uint32_t result, double lo, double hi,
                   bool zeros = false) {
  constexpr uint32_t kTileValues = kValues / kTiles;
  const auto rising = [=](uint32_t k) { return lo + (hi - lo) * k / (kTileValues - 1); };
  return run_compute("sfpu_binary.cpp", {{"SFPU_BINARY", init + " " + call}, {"RESULT_DST", std::to_string(result)}},
                     [&](uint32_t k) {
                       if (k < kTileValues) return rising(k);
                       const uint32_t i = k - kTileValues;
                       if (zeros && i % 3 == 1) return 0.0;
                       return i % 4 == 0 ? rising(i) : rising(kTileValues - 1 - i);
                     });
}

class SfpuBinaryFunctions : public ::testing::TestWithParam<SfpuBinaryCase> {};

TEST_P(SfpuBinaryFunctions, MatchTheFunctionWithinBf16Tolerance) {
  const SfpuBinaryCase& p = GetParam();
  const Chained c = run_binary(p.init, p.call, p.result, p.lo, p.hi, p.zeros);
  ASSERT_TRUE(c.report.clean()) << first_fault(c.report);
  ASSERT_EQ(c.out.size(), c.in.size());
  constexpr uint32_t kTileValues = kValues / kTiles;
  int bad = 0;
  for (uint32_t k = 0; k < kTileValues; ++k) {
    const double a = c.in[k], b = c.in[kTileValues + k];
    const double want = p.reference(a, b);
    const bool same = std::isinf(want) ? c.out[k] == want : std::fabs(c.out[k] - want) <= 1e-2 + 1e-2 * std::fabs(want);
    if (!same && bad++ < 5) {
      ADD_FAILURE() << p.name << "(" << a << ", " << b << ") = " << c.out[k] << ", want " << want;
    }
    if (c.out[kTileValues + k] != c.in[kTileValues + k] && bad++ < 5) {
      ADD_FAILURE() << p.name << ": DST 1 changed at " << k << ": " << c.out[kTileValues + k];
    }
  }
  EXPECT_EQ(bad, 0);
}

double truth(bool holds) { return holds ? 1.0 : 0.0; }

INSTANTIATE_TEST_SUITE_P(
    Binary, SfpuBinaryFunctions,
    ::testing::Values(
        SfpuBinaryCase{"add", "add_binary_tile_init();", "add_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return a + b; }},
        SfpuBinaryCase{"add_rounding_mode", "add_binary_tile_init();",
                       "add_binary_tile<DstRoundingMode::NearestEven>(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return a + b; }},
        SfpuBinaryCase{"sub", "sub_binary_tile_init();", "sub_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return a - b; }},
        SfpuBinaryCase{"rsub", "rsub_binary_tile_init();", "rsub_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return b - a; }},
        SfpuBinaryCase{"mul", "mul_binary_tile_init();", "mul_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return a * b; }},
        SfpuBinaryCase{"div", "div_binary_tile_init();", "div_binary_tile(0, 1, 0);", 0, 0.5, 4,
                       [](double a, double b) { return a / b; }},
        SfpuBinaryCase{"power", "power_binary_tile_init();", "power_binary_tile(0, 1, 0);", 0, 0.5, 2,
                       [](double a, double b) { return std::pow(a, b); }},
        // the result into a third DST tile, leaving both operands
        SfpuBinaryCase{"mul_into_dst2", "mul_binary_tile_init();", "mul_binary_tile(0, 1, 2);", 2, -4, 4,
                       [](double a, double b) { return a * b; }},
        SfpuBinaryCase{"eq", "eq_binary_tile_init();", "eq_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return truth(a == b); }},
        SfpuBinaryCase{"ne", "ne_binary_tile_init();", "ne_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return truth(a != b); }},
        SfpuBinaryCase{"lt", "lt_binary_tile_init();", "lt_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return truth(a < b); }},
        SfpuBinaryCase{"gt", "gt_binary_tile_init();", "gt_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return truth(a > b); }},
        SfpuBinaryCase{"le", "le_binary_tile_init();", "le_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return truth(a <= b); }},
        SfpuBinaryCase{"ge", "ge_binary_tile_init();", "ge_binary_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return truth(a >= b); }},
        SfpuBinaryCase{"max", "binary_max_tile_init();", "binary_max_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return std::max(a, b); }},
        SfpuBinaryCase{"min", "binary_min_tile_init();", "binary_min_tile(0, 1, 0);", 0, -4, 4,
                       [](double a, double b) { return std::min(a, b); }},
        SfpuBinaryCase{"copy_dest_values", "copy_dest_values_init();", "copy_dest_values(0, 2);", 2, -4, 4,
                       [](double a, double) { return a; }},
        SfpuBinaryCase{"copy_dest_values_format", "copy_dest_values_init();",
                       "copy_dest_values<DataFormat::Float16_b>(0, 2);", 2, -4, 4, [](double a, double) { return a; }},
        SfpuBinaryCase{"mask", "mask_tile_init();", "mask_tile(0, 1);", 0, -4, 4,
                       [](double a, double m) { return m == 0 ? 0.0 : a; }, true},
        SfpuBinaryCase{"mask_posinf", "mask_tile_init();", "mask_posinf_tile(0, 1);", 0, -4, 4,
                       [](double a, double m) { return m == 0 ? INFINITY : a; }, true}),
    [](const ::testing::TestParamInfo<SfpuBinaryCase>& info) { return info.param.name; });

// The emulator's function of a pair against the slow reference above, on values bf16 cannot hold
// (so a wrong operand order or a swapped comparison shows without the packer's rounding).
TEST(SfpuBinaryValue, OperandOrder) {
  using emu::SfpuBinaryFunction;
  EXPECT_FLOAT_EQ(emu::sfpu_binary_value(SfpuBinaryFunction::sub, 5.25f, 2.0f), 3.25f);
  EXPECT_FLOAT_EQ(emu::sfpu_binary_value(SfpuBinaryFunction::rsub, 5.25f, 2.0f), -3.25f);
  EXPECT_FLOAT_EQ(emu::sfpu_binary_value(SfpuBinaryFunction::div, 1.0f, 3.0f), 1.0f / 3.0f);
  EXPECT_FLOAT_EQ(emu::sfpu_binary_value(SfpuBinaryFunction::power, 2.0f, 0.5f), std::sqrt(2.0f));
  EXPECT_EQ(emu::sfpu_binary_value(SfpuBinaryFunction::lt, 1.0f, 2.0f), 1.0f);
  EXPECT_EQ(emu::sfpu_binary_value(SfpuBinaryFunction::lt, 2.0f, 1.0f), 0.0f);
  EXPECT_EQ(emu::sfpu_binary_value(SfpuBinaryFunction::max, -1.0f, -2.0f), -1.0f);
  EXPECT_EQ(emu::sfpu_binary_value(SfpuBinaryFunction::min, -1.0f, -2.0f), -2.0f);
}

TEST(SfpuBinaryFaults, CallWithoutItsInitIsNamed) {
  const Chained c = run_binary("add_binary_tile_init();", "sub_binary_tile(0, 1, 0);", 0, -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("sub_binary_tile: sub_binary_tile_init has not run"), std::string::npos)
      << first_fault(c.report);
}

TEST(SfpuBinaryFaults, IntegerOpsAreNamed) {
  for (const auto& [init, call, named] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"", "add_int_tile<DataFormat::Int32>(0, 1, 0);", "add_int_tile"},
           {"add_int_tile_init();", "", "add_int_tile_init"},
           {"", "binary_max_int32_tile(0, 1, 0);", "binary_max_int32_tile"},
           {"binary_min_uint32_tile_init();", "", "binary_min_uint32_tile_init"},
           {"", "gtz_tile_int32(0);", "gtz_tile_int32"},
           {"", "unary_gt_tile_int32(0, 1u);", "unary_gt_tile_int32"},
           {"", "add_unary_tile_int32(0, 1u);", "add_unary_tile_int32"},
           {"mask_tile_init();", "mask_tile(0, 1, DataFormat::Int32);", "mask_tile"}}) {
    const Chained c = run_binary(init, call, 0, -4, 4);
    ASSERT_EQ(c.report.faults.size(), 1u) << named;
    EXPECT_NE(first_fault(c.report).find(named + ": integer values in DST are not modelled"), std::string::npos)
        << first_fault(c.report);
  }
}

TEST(SfpuBinaryFaults, MaskFromAnotherTileThanTheNextIsNamed) {
  const Chained c = run_binary("mask_tile_init();", "mask_tile(1, 0);", 0, -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("mask_tile(1, 0): the SFPU reads the mask from DST[2]"), std::string::npos)
      << first_fault(c.report);
}

TEST(SfpuFunctionFaults, SfpuReduceIsNamed) {
  const Chained c = run_chain("", "sfpu_reduce<PoolType::MAX, DataFormat::Float16_b>(0);", -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("not modelled: sfpu_reduce"), std::string::npos) << first_fault(c.report);
}

TEST(SfpuBinaryFaults, CumsumIsNamed) {
  const Chained c = run_binary("", "cumsum_tile(0);", 0, -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("not modelled: cumsum_tile"), std::string::npos) << first_fault(c.report);
}

TEST(SfpuBinaryFaults, PartOfTheTileIsNamed) {
  const Chained c = run_binary("binary_max_tile_init();", "binary_max_tile(0, 1, 0, VectorMode::R);", 0, -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("binary_max_tile: vector_mode 1 (part of the tile) is not modelled"),
            std::string::npos)
      << first_fault(c.report);
}

// unary_bcast: each tile's first row (ROW), first column (COL) or first element (SCALAR) fills it.
TEST(UnaryBcast, RowColumnAndScalar) {
  for (const std::string dim : {"ROW", "COL", "SCALAR"}) {
    const Chained c = run_compute("unary_bcast.cpp", {{"BCAST_DIM", dim}}, -8, 8);
    ASSERT_TRUE(c.report.clean()) << dim << ": " << first_fault(c.report);
    // the values are stored tile by tile in tt-metal's order: 4 faces of 16 x 16, row-major
    auto at = [&](const std::vector<float>& v, uint32_t t, int r, int col) {
      return v[t * 1024 + (r / 16 * 2 + col / 16) * 256 + (r % 16) * 16 + col % 16];
    };
    for (uint32_t t = 0; t < kTiles; ++t) {
      for (int r = 0; r < 32; ++r) {
        for (int col = 0; col < 32; ++col) {
          const int sr = dim == "COL" ? r : 0, sc = dim == "ROW" ? col : 0;
          ASSERT_EQ(at(c.out, t, r, col), at(c.in, t, sr, sc)) << dim << " tile " << t << " (" << r << "," << col << ")";
        }
      }
    }
  }
}

TEST(UnaryBcast, CallAfterAnotherBroadcastsInitIsNamed) {
  const Chained c = run_compute("unary_bcast.cpp", {{"BCAST_DIM", "ROW"}, {"BCAST_CALL_DIM", "COL"}},
                                -8, 8);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("the last op init was unary_bcast_init<BroadcastType::ROW>"), std::string::npos)
      << first_fault(c.report);
}

}  // namespace
}  // namespace ditmk::tt::dialect
