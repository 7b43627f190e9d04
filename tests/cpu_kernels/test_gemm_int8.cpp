// The int8 GEMM: block quantization, packing, and every int8 kernel against the reference bit for
// bit (integer sums are exact and every path applies the scales in the same fp32 order).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/gemm.hpp"
#include "random_data.hpp"

namespace ditmk::cpu {
namespace {

using testing::random_normal;
using testing::random_tensor;

TEST(Int8Block, WeightScaleIsAbsmaxOver127AndValuesRoundHalfToEven) {
  // absmax 127 makes v * (127 / absmax) = v exactly, so halves are ties
  const float v[7] = {127.0f, -127.0f, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f};
  int8_t q[kInt8Block];
  std::memset(q, 99, sizeof q);
  EXPECT_EQ(quantize_int8_weights(v, 7, q), 1.0f);
  const int8_t expected[7] = {127, -127, 0, 2, 2, 0, -2};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(q[i], expected[i]) << i;
  for (int64_t i = 7; i < kInt8Block; ++i) EXPECT_EQ(q[i], 0) << "past count " << i;
  const float small[2] = {2.0f, 0.7f};
  EXPECT_EQ(quantize_int8_weights(small, 2, q), 2.0f / 127.0f);
  EXPECT_EQ(q[1], 44);  // 0.7 * 63.5 = 44.45
}

TEST(Int8Block, ActivationScaleIsTheSmallestPowerOfTwoThatFits) {
  EXPECT_EQ(int8_activation_exponent(127.0f), 0);         // 127 * 2^0 fits exactly
  EXPECT_EQ(int8_activation_exponent(127.5f), 1);         // 63.75 * 2
  EXPECT_EQ(int8_activation_exponent(64.0f), 0);
  EXPECT_EQ(int8_activation_exponent(63.5f), -1);         // 127 exactly
  EXPECT_EQ(int8_activation_exponent(63.9f), 0);          // 127.8 would not fit
  EXPECT_EQ(int8_activation_exponent(1.0f), -6);          // 1 -> 64
  EXPECT_EQ(int8_activation_exponent(1.984375f), -6);     // 127 exactly
  EXPECT_EQ(int8_activation_exponent(1.99f), -5);         // 127.36 would not fit: 63.68
  EXPECT_EQ(int8_activation_exponent(0.0f), 0);
  EXPECT_EQ(int8_activation_exponent(0x1p-65f), 0);       // below kInt8ZeroBelow: a zero block
  EXPECT_EQ(int8_activation_exponent(std::numeric_limits<float>::infinity()), 59);
  // ties: absmax 127 scales by exactly 1, so halves stay halves
  const float v[6] = {127.0f, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f};
  int8_t q[kInt8Block];
  std::memset(q, 99, sizeof q);
  EXPECT_EQ(quantize_int8_activations(v, 6, q), 0);
  const int8_t expected[6] = {127, 0, 2, 2, 0, -2};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(q[i], expected[i]) << i;
  for (int64_t i = 6; i < kInt8Block; ++i) EXPECT_EQ(q[i], 0) << "past count " << i;
}

TEST(Int8Block, ZeroBlocksAndErrorBounds) {
  const float zeros[kInt8Block] = {};
  int8_t q[kInt8Block];
  EXPECT_EQ(quantize_int8_weights(zeros, kInt8Block, q), 0.0f);
  for (int8_t v : q) EXPECT_EQ(v, 0);
  EXPECT_EQ(quantize_int8_activations(zeros, kInt8Block, q), 0);
  for (int8_t v : q) EXPECT_EQ(v, 0);
  const std::vector<float> x = random_normal(kInt8Block * 64, 31, 3.0f);
  for (int64_t b = 0; b < 64; ++b) {
    const float* block = x.data() + b * kInt8Block;
    float absmax = 0;
    for (int64_t i = 0; i < kInt8Block; ++i) absmax = std::max(absmax, std::abs(block[i]));
    const float scale = quantize_int8_weights(block, kInt8Block, q);
    for (int64_t i = 0; i < kInt8Block; ++i) ASSERT_LE(std::abs(block[i] - q[i] * scale), 0.5001f * absmax / 127) << b;
    const float step = std::ldexp(1.0f, quantize_int8_activations(block, kInt8Block, q));
    EXPECT_GE(step, absmax / 127) << b;
    EXPECT_LE(step, absmax / 63.5f) << b;
    for (int64_t i = 0; i < kInt8Block; ++i) ASSERT_LE(std::abs(block[i] - q[i] * step), 0.5f * step) << b;
  }
}

// Each int8 block of a column holds quantize_int8_weights of the column's 32 source values along K.
TEST(PackedWeightsInt8, BlocksRunAlongKAndMatchTheQuantizer) {
  for (WeightLayout layout : {WeightLayout::out_in, WeightLayout::in_out}) {
    const int64_t n = 45, k = 70;
    Tensor src = random_tensor(DType::F32, layout == WeightLayout::out_in ? Shape{n, k} : Shape{k, n}, 32);
    // widely different magnitudes per block make a wrong grouping visible
    for (int64_t i = 0; i < n * k; ++i) src.data<float>()[i] *= std::ldexp(1.0f, int((i / 32) % 7) - 3);
    const PackedWeights w = PackedWeights::pack(src.view(), layout, WeightFormat::int8);
    EXPECT_EQ(w.k_padded(), 96);
    EXPECT_EQ(w.bytes(), std::size_t(2 * 3 * PackedWeights::kInt8GroupBytes));
    for (int64_t nn = 0; nn < n; ++nn) {
      for (int64_t b = 0; b < 3; ++b) {
        float column[kInt8Block] = {};
        const int64_t valid = std::min<int64_t>(kInt8Block, k - b * kInt8Block);
        for (int64_t i = 0; i < valid; ++i) {
          const int64_t kk = b * kInt8Block + i;
          column[i] = src.data<float>()[layout == WeightLayout::out_in ? nn * k + kk : kk * n + nn];
        }
        int8_t q[kInt8Block];
        const float scale = quantize_int8_weights(column, valid, q);
        ASSERT_EQ(w.int8_scale(nn, b * kInt8Block), scale) << nn << "," << b;
        for (int64_t i = 0; i < kInt8Block; ++i) {
          ASSERT_EQ(w.int8_value(nn, b * kInt8Block + i), q[i]) << nn << "," << b * kInt8Block + i;
          if (i < valid) {
            ASSERT_EQ(w.value(nn, b * kInt8Block + i), float(q[i]) * scale);
          }
        }
      }
    }
  }
}

TEST(PackedWeightsInt8, NonFiniteWeightIsAnErrorNamingTheTensor) {
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    Tensor src = random_tensor(DType::F32, {8, 40}, 33);
    src.data<float>()[3 * 40 + 35] = bad;
    try {
      PackedWeights::pack(src.view(), WeightLayout::out_in, WeightFormat::int8, "blocks.3.ff");
      FAIL() << "non-finite weight accepted";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("blocks.3.ff"), std::string::npos) << what;
      EXPECT_NE(what.find("column 3, row 35"), std::string::npos) << what;
    }
  }
  EXPECT_EQ(parse_weight_format("int8"), WeightFormat::int8);
}

struct Int8Problem {
  int64_t m, k, n;
  std::vector<float> x, bias, y0;
  PackedWeights w;
  Tensor scratch;

  Int8Problem(int64_t m_, int64_t k_, int64_t n_, uint64_t stream) : m(m_), k(k_), n(n_) {
    x = random_normal(std::size_t(m * k), stream);
    // rows of very different sizes, and an outlier, as LayerNorm outputs and GELU inputs have
    for (int64_t r = 0; r < m; ++r)
      for (int64_t i = 0; i < k; ++i) x[std::size_t(r * k + i)] *= std::ldexp(1.0f, int(r % 5) - 2);
    x[std::size_t(k / 2)] *= 20.0f;
    bias = random_normal(std::size_t(n), stream + 1, 0.5f);
    y0 = random_normal(std::size_t(m * n), stream + 2);
    const Tensor src = random_tensor(DType::F32, {n, k}, stream + 3, 1.0f / std::sqrt(float(k)));
    w = PackedWeights::pack(src.view(), WeightLayout::out_in, WeightFormat::int8);
    scratch = Tensor(DType::U8, {int64_t(gemm_scratch_bytes(w, m))});
  }

  GemmArgs args(float* y, Activation act, OutputMode out, bool with_bias = true) const {
    GemmArgs a;
    a.x = x.data(), a.x_stride = k, a.m = m, a.weights = &w, a.bias = with_bias ? bias.data() : nullptr;
    a.activation = act, a.output = out, a.y = y, a.y_stride = n, a.n_begin = 0, a.n_end = n;
    a.scratch = const_cast<std::byte*>(scratch.bytes()), a.scratch_bytes = scratch.nbytes();
    return a;
  }
};

TEST(Int8Dot, FollowsTheIsaCapAndTheCpu) {
  EXPECT_EQ(int8_dot_for(Isa::portable), Int8Dot::portable);
  if (isa_supported(Isa::avx2)) {
    EXPECT_EQ(int8_dot_for(Isa::avx2), has_avx_vnni() ? Int8Dot::avx_vnni : Int8Dot::avx2);
  }
  if (isa_supported(Isa::avx512f) && has_avx512_vnni()) {  // with or without AVX512-BF16
    EXPECT_EQ(int8_dot_for(Isa::avx512f), Int8Dot::avx512_vnni);
    EXPECT_EQ(int8_dot_for(Isa::avx512_bf16), isa_supported(Isa::avx512_bf16) ? Int8Dot::avx512_vnni : int8_dot_for(Isa::avx2));
  }
  for (Isa isa : supported_isas()) EXPECT_TRUE(int8_dot_supported(int8_dot_for(isa))) << isa_name(isa);
  const std::vector<Int8Dot> dots = supported_int8_dots();
  for (Int8Dot dot : {Int8Dot::portable, Int8Dot::avx2, Int8Dot::avx_vnni, Int8Dot::avx512_vnni}) {
    const bool listed = std::find(dots.begin(), dots.end(), dot) != dots.end();
    EXPECT_EQ(int8_dot_supported(dot), listed) << int8_dot_name(dot);
    if (!listed) {  // refused by name, not run
      const Int8Problem p(4, 64, 32, 900);
      std::vector<float> y(p.y0);
      EXPECT_THROW(gemm_int8(p.args(y.data(), Activation::none, OutputMode::store), dot), Error) << int8_dot_name(dot);
    }
  }
}

std::string label(Int8Dot dot, int64_t m, int64_t k, int64_t n) {
  return std::string(int8_dot_name(dot)) + " M=" + std::to_string(m) + " K=" + std::to_string(k) + " N=" + std::to_string(n);
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(GemmInt8, EveryKernelEqualsTheReferenceBitForBit) {
  const int64_t shapes[][3] = {{1, 32, 32}, {13, 7, 5}, {49, 64, 96}, {64, 132, 100}, {49, 520, 132},
                               {17, 300, 160}, {64, 1536, 64}, {49, 264, 32}};
  uint64_t stream = 1000;
  for (const auto& s : shapes) {
    const Int8Problem p(s[0], s[1], s[2], stream += 4);
    for (Activation act : {Activation::none, Activation::relu}) {
      for (OutputMode out : {OutputMode::store, OutputMode::accumulate}) {
        for (bool with_bias : {true, false}) {
          std::vector<float> want(p.y0);
          gemm_reference(p.args(want.data(), act, out, with_bias));
          for (Int8Dot dot : supported_int8_dots()) {
            std::vector<float> got(p.y0);
            gemm_int8(p.args(got.data(), act, out, with_bias), dot);
            EXPECT_TRUE(same_bits(got, want)) << label(dot, s[0], s[1], s[2]) << " act " << int(act) << " out "
                                              << int(out) << " bias " << with_bias;
          }
        }
      }
    }
  }
}

// gelu_tanh and silu go through each ISA's own exp; everything before them is bit-exact.
TEST(GemmInt8, SmoothActivationsWithinTheirApproximation) {
  const Int8Problem p(49, 200, 96, 1100);
  for (Activation act : {Activation::gelu_tanh, Activation::silu}) {
    std::vector<float> want(p.y0);
    gemm_reference(p.args(want.data(), act, OutputMode::accumulate));
    for (Int8Dot dot : supported_int8_dots()) {
      std::vector<float> got(p.y0);
      gemm_int8(p.args(got.data(), act, OutputMode::accumulate), dot);
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 2e-6 * (1 + std::abs(want[i]))) << label(dot, 49, 200, 96) << " act " << int(act);
    }
  }
}

// The int8 scheme itself against exact float64 products of the unquantized operands: 32-value
// quantizations of ~0.5% (weights) and ~0.7% RMS (x) leave the product within ~1% (relative L2).
TEST(GemmInt8, CloseToTheUnquantizedProduct) {
  const int64_t m = 49, k = 1536, n = 128;
  const std::vector<float> x = random_normal(std::size_t(m * k), 1200);
  const Tensor src = random_tensor(DType::F32, {n, k}, 1201, 1.0f / std::sqrt(float(k)));
  const PackedWeights w = PackedWeights::pack(src.view(), WeightLayout::out_in, WeightFormat::int8);
  Tensor scratch(DType::U8, {int64_t(gemm_scratch_bytes(w, m))});
  std::vector<float> y(std::size_t(m * n));
  GemmArgs a;
  a.x = x.data(), a.x_stride = k, a.m = m, a.weights = &w, a.y = y.data(), a.y_stride = n, a.n_begin = 0, a.n_end = n;
  a.scratch = scratch.bytes(), a.scratch_bytes = scratch.nbytes();
  gemm(a);
  double err = 0, ref = 0;
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      double exact = 0;
      for (int64_t i = 0; i < k; ++i) exact += double(x[std::size_t(r * k + i)]) * src.data<float>()[c * k + i];
      err += (y[std::size_t(r * n + c)] - exact) * (y[std::size_t(r * n + c)] - exact);
      ref += exact * exact;
    }
  EXPECT_LT(std::sqrt(err / ref), 0.012);
  EXPECT_GT(std::sqrt(err / ref), 0.001);  // it is quantized
}

TEST(GemmInt8, ColumnRangeWritesOnlyItsColumns) {
  const Int8Problem p(17, 96, 132, 1300);
  std::vector<float> full(p.y0);
  gemm_reference(p.args(full.data(), Activation::none, OutputMode::store));
  for (Int8Dot dot : supported_int8_dots()) {
    for (auto [begin, end] : {std::pair<int64_t, int64_t>{32, 96}, {128, 132}, {0, 32}}) {
      std::vector<float> got(p.y0);
      GemmArgs a = p.args(got.data(), Activation::none, OutputMode::store);
      a.n_begin = begin, a.n_end = end;
      gemm_int8(a, dot);
      for (int64_t r = 0; r < p.m; ++r)
        for (int64_t c = 0; c < p.n; ++c) {
          const std::size_t i = std::size_t(r * p.n + c);
          const float want = c >= begin && c < end ? full[i] : p.y0[i];
          ASSERT_EQ(got[i], want) << label(dot, p.m, p.k, p.n) << " " << r << "," << c;
        }
    }
  }
}

// x quantized by each ISA's vector code is byte for byte the scalar quantizer's (+128 offset),
// including ties, tails past K, rows of zeros and of tiny values.
TEST(GemmInt8, EveryIsaQuantizesXLikeTheScalarRule) {
  for (const int64_t k : {77, 700}) {  // a few blocks, and more than the 16 the AVX-512 code takes at once
    const int64_t m = 6;
    std::vector<float> x = random_normal(std::size_t(m * k), 1400, 2.0f);
    for (int64_t i = 0; i < k; ++i) x[std::size_t(2 * k + i)] = 0.0f;  // a zero row
    // ties: a block whose absmax is 127 multiplies by exactly 1, so halves stay halves
    for (int64_t i = 0; i < k; ++i)
      x[std::size_t(3 * k + i)] = i % kInt8Block == 0 ? 127.0f : float(i % 2 ? 1 : -1) * (float(i % 40) + 0.5f);
    for (int64_t i = 0; i < k; ++i) x[std::size_t(4 * k + i)] *= i < 40 ? 0x1p-66f : 0x1p-60f;  // below / near 2^-64
    for (int64_t i = 0; i < k; ++i) x[std::size_t(5 * k + i)] *= float(1 << (i / 32 % 12));  // blocks of every size
    const Tensor src = random_tensor(DType::F32, {32, k}, 1401);
    const PackedWeights w = PackedWeights::pack(src.view(), WeightLayout::out_in, WeightFormat::int8);
    const int64_t blocks = w.k_padded() / kInt8Block;
    for (Isa isa : supported_isas()) {
      std::vector<Int8XBlock> out(std::size_t(m * blocks));
      GemmArgs a;
      a.x = x.data(), a.x_stride = k, a.m = m, a.weights = &w;
      a.scratch = reinterpret_cast<std::byte*>(out.data()), a.scratch_bytes = out.size() * sizeof(Int8XBlock);
      gemm_prepare_x(a, isa);
      for (int64_t r = 0; r < m; ++r)
        for (int64_t b = 0; b < blocks; ++b) {
          int8_t q[kInt8Block];
          const int64_t valid = std::min<int64_t>(kInt8Block, k - b * kInt8Block);
          const int exponent = quantize_int8_activations(x.data() + r * k + b * kInt8Block, valid, q);
          const Int8XBlock& got = out[std::size_t(r * blocks + b)];
          ASSERT_EQ(got.exponent, float(exponent)) << int8_dot_name(int8_dot_for(isa)) << " row " << r << " block " << b;
          for (int64_t i = 0; i < kInt8Block; ++i)
            ASSERT_EQ(int(got.values[i]), q[i] + 128) << int8_dot_name(int8_dot_for(isa)) << " " << r << "," << b * 32 + i;
        }
    }
  }
}

TEST(GemmInt8, RepeatedCallsAreBitIdentical) {
  const Int8Problem p(64, 300, 160, 1500);
  for (Int8Dot dot : supported_int8_dots()) {
    std::vector<float> first(p.y0), second(p.y0);
    gemm_int8(p.args(first.data(), Activation::gelu_tanh, OutputMode::store), dot);
    gemm_int8(p.args(second.data(), Activation::gelu_tanh, OutputMode::store), dot);
    EXPECT_TRUE(same_bits(first, second)) << int8_dot_name(dot);
  }
}

// Blocks whose every value quantizes to +-127 on both sides: the largest int32 block sums, and for
// the AVX2 kernel the largest int16 pair sums (2 * 127 * 127) vpmaddubsw must not saturate, in
// every sign combination.
TEST(GemmInt8, ExtremeBlocksAreExact) {
  const int64_t m = 4, k = 96, n = 64;
  std::vector<float> x(std::size_t(m * k));
  for (int64_t r = 0; r < m; ++r)
    for (int64_t i = 0; i < k; ++i) x[std::size_t(r * k + i)] = (r == 0 || (r == 2 && i % 2) || (r == 3 && i % 3 == 0)) ? 127.0f : -127.0f;
  Tensor src(DType::F32, {n, k});
  for (int64_t c = 0; c < n; ++c)
    for (int64_t i = 0; i < k; ++i) src.data<float>()[c * k + i] = (c % 2 == 0 || (c % 4 == 1 && i % 2)) ? 0.5f : -0.5f;
  const PackedWeights w = PackedWeights::pack(src.view(), WeightLayout::out_in, WeightFormat::int8);
  Tensor scratch(DType::U8, {int64_t(gemm_scratch_bytes(w, m))});
  GemmArgs a;
  a.x = x.data(), a.x_stride = k, a.m = m, a.weights = &w, a.y_stride = n, a.n_begin = 0, a.n_end = n;
  a.scratch = scratch.bytes(), a.scratch_bytes = scratch.nbytes();
  std::vector<float> want(std::size_t(m * n));
  a.y = want.data();
  gemm_reference(a);
  EXPECT_EQ(want[0], 127.0f * 0.5f * float(k));  // all products positive: the exact sum
  for (Int8Dot dot : supported_int8_dots()) {
    std::vector<float> got(std::size_t(m * n));
    a.y = got.data();
    gemm_int8(a, dot);
    EXPECT_TRUE(same_bits(got, want)) << int8_dot_name(dot);
  }
}

}  // namespace
}  // namespace ditmk::cpu
