// The element-wise family's SFPU calls, run as ttnn's unary factory runs them: a tile copied into
// DST, the SFPU_OP_CHAIN_0 define ttnn writes for the op, the result packed to bf16; checked against
// the function in double precision with bf16 tolerances. Calls the emulator does not model fault
// naming themselves. Also unary_bcast, the broadcast binary_ng's kernels run on its own.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "ditmk/core/dtype.hpp"
#include "ditmk/tt/dialect/host_api.hpp"

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

// Values evenly spread over [lo, hi] through a compute kernel of this folder on one core: DRAM ->
// CB 0 -> the kernel -> CB 16 -> DRAM.
Chained run_compute(const std::string& kernel, const std::vector<std::pair<std::string, std::string>>& defines,
                    double lo, double hi) {
  HostDevice device(fs::path(DITMK_BINARY_DIR) / "kernel-cache-tests");
  auto src = CreateBuffer(device, {kTiles * kPage, kPage, DataFormat::float16_b, "src"});
  auto dst = CreateBuffer(device, {kTiles * kPage, kPage, DataFormat::float16_b, "dst"});
  Chained c;
  std::vector<std::byte> bytes;
  for (uint32_t k = 0; k < kValues; ++k) {
    const float v = round_to_bf16(float(lo + (hi - lo) * k / (kValues - 1)));
    c.in.push_back(v);
    const uint16_t bits = f32_to_bf16(v);
    bytes.push_back(std::byte(bits & 0xFF));
    bytes.push_back(std::byte(bits >> 8));
  }
  EnqueueWriteBuffer(device, *src, bytes);
  Program program = CreateProgram();
  const CoreRangeSet core = {{{0, 0}, {0, 0}}};
  const fs::path tests = fs::path(DITMK_SOURCE_DIR) / "tests/tt_dialect";
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
                 [](double x) { return x; }}),
    [](const ::testing::TestParamInfo<SfpuCase>& info) { return info.param.name; });

TEST(SfpuFunctionFaults, IntegerTypecastIsNamed) {
  const Chained c = run_chain("typecast_tile_init<5u, 8u>();", "typecast_tile<5u, 8u>(0);", -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("typecast_tile<5, 8>: integer values in DST are not modelled"),
            std::string::npos)
      << first_fault(c.report);
}

TEST(SfpuFunctionFaults, IntegerMultiplyIsNamed) {
  const Chained c =
      run_chain("mul_int_tile_init<DataFormat::Int32>();", "mul_int_tile<DataFormat::Int32>(0, 0, 0);", -4, 4);
  ASSERT_EQ(c.report.faults.size(), 1u);
  EXPECT_NE(first_fault(c.report).find("mul_int_tile_init: integer values in DST are not modelled"),
            std::string::npos)
      << first_fault(c.report);
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
