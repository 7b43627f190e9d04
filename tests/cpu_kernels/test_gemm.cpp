#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/gemm.hpp"
#include "ditmk/format/bfp8.hpp"
#include "random_data.hpp"

namespace ditmk::cpu {
namespace {

using testing::random_normal;
using testing::random_tensor;

const WeightFormat kFormats[] = {WeightFormat::fp32, WeightFormat::bf16, WeightFormat::bfp8_b};

struct Problem {
  int64_t m, k, n;
  std::vector<float> x, bias, y0;
  PackedWeights w;
  Tensor scratch;

  Problem(int64_t m_, int64_t k_, int64_t n_, WeightFormat format, WeightLayout layout, uint64_t stream)
      : m(m_), k(k_), n(n_) {
    x = random_normal(std::size_t(m * k), stream);
    bias = random_normal(std::size_t(n), stream + 1, 0.5f);
    y0 = random_normal(std::size_t(m * n), stream + 2);
    const Tensor src = random_tensor(DType::F32, layout == WeightLayout::out_in ? Shape{n, k} : Shape{k, n}, stream + 3,
                                     1.0f / std::sqrt(float(k)));
    w = PackedWeights::pack(src.view(), layout, format);
    scratch = Tensor(DType::U8, {int64_t(gemm_scratch_bytes(w, m)) + 1});
  }

  GemmArgs args(float* y, Activation act = Activation::none, OutputMode out = OutputMode::store) const {
    GemmArgs a;
    a.x = x.data();
    a.x_stride = k;
    a.m = m;
    a.weights = &w;
    a.bias = bias.data();
    a.activation = act;
    a.output = out;
    a.y = y;
    a.y_stride = n;
    a.n_begin = 0;
    a.n_end = n;
    a.scratch = const_cast<std::byte*>(scratch.bytes());
    a.scratch_bytes = scratch.nbytes();
    return a;
  }
};

// Largest |got - want| relative to the largest |want|: the kernels differ from the reference only
// in fp32 summation order (and the epilogue's exp), so this stays near 1e-6.
double relative_error(const std::vector<float>& got, const std::vector<float>& want) {
  double max_err = 0, max_ref = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    max_err = std::max(max_err, std::abs(double(got[i]) - want[i]));
    max_ref = std::max(max_ref, std::abs(double(want[i])));
  }
  EXPECT_GT(max_ref, 0.1);
  return max_err / max_ref;
}

std::string label(Isa isa, WeightFormat f, int64_t m, int64_t k, int64_t n) {
  return std::string(isa_name(isa)) + " " + std::string(weight_format_name(f)) + " M=" + std::to_string(m) +
         " K=" + std::to_string(k) + " N=" + std::to_string(n);
}

TEST(Gemm, EveryIsaAndFormatMatchesReferenceOnOddShapes) {
  const int64_t shapes[][3] = {{1, 132, 132}, {49, 64, 32}, {64, 132, 128}, {49, 520, 100}, {64, 1536, 64}, {13, 7, 5}};
  uint64_t stream = 100;
  for (const auto& s : shapes) {
    for (WeightFormat f : kFormats) {
      for (WeightLayout layout : {WeightLayout::out_in, WeightLayout::in_out}) {
        const Problem p(s[0], s[1], s[2], f, layout, stream += 4);
        std::vector<float> want(p.y0);
        gemm_reference(p.args(want.data()));
        for (Isa isa : supported_isas()) {
          std::vector<float> got(p.y0);
          gemm(p.args(got.data()), isa);
          EXPECT_LT(relative_error(got, want), 2e-6) << label(isa, f, s[0], s[1], s[2]);
        }
      }
    }
  }
}

TEST(Gemm, EveryEpilogue) {
  uint64_t stream = 300;
  for (WeightFormat f : kFormats) {
    const Problem p(49, 200, 96, f, WeightLayout::out_in, stream += 4);
    for (Activation act : {Activation::none, Activation::relu, Activation::gelu_tanh, Activation::silu}) {
      for (OutputMode out : {OutputMode::store, OutputMode::accumulate}) {
        std::vector<float> want(p.y0);
        gemm_reference(p.args(want.data(), act, out));
        for (Isa isa : supported_isas()) {
          std::vector<float> got(p.y0);
          gemm(p.args(got.data(), act, out), isa);
          EXPECT_LT(relative_error(got, want), 2e-6)
              << label(isa, f, 49, 200, 96) << " act " << int(act) << " out " << int(out);
        }
      }
    }
  }
}

// The AVX-512F kernels (zmm FMA, bf16 widened in registers, bfp8_b decoded to fp32) sum the AVX2
// kernels' products in the same order: without an activation the outputs are the same bytes.
TEST(Gemm, Avx512fSumsAsAvx2) {
  if (!isa_supported(Isa::avx512f)) GTEST_SKIP() << "no AVX-512 here";
  const int64_t shapes[][3] = {{49, 1536, 64}, {12, 6144, 96}, {64, 520, 100}, {3, 132, 132}, {13, 7, 5}};
  uint64_t stream = 700;
  for (const auto& s : shapes)
    for (WeightFormat f : kFormats) {
      const Problem p(s[0], s[1], s[2], f, WeightLayout::out_in, stream += 4);
      std::vector<float> avx2(p.y0), avx512f(p.y0);
      gemm(p.args(avx2.data(), Activation::none, OutputMode::accumulate), Isa::avx2);
      gemm(p.args(avx512f.data(), Activation::none, OutputMode::accumulate), Isa::avx512f);
      EXPECT_EQ(avx2, avx512f) << label(Isa::avx512f, f, s[0], s[1], s[2]);
    }
}

TEST(Gemm, ColumnRangeWritesOnlyItsColumns) {
  const Problem p(17, 96, 132, WeightFormat::bf16, WeightLayout::in_out, 400);
  std::vector<float> full(p.y0);
  gemm_reference(p.args(full.data()));
  for (Isa isa : supported_isas()) {
    for (auto [begin, end] : {std::pair<int64_t, int64_t>{32, 96}, {128, 132}, {0, 32}}) {
      std::vector<float> got(p.y0);
      GemmArgs a = p.args(got.data());
      a.n_begin = begin;
      a.n_end = end;
      gemm(a, isa);
      for (int64_t r = 0; r < p.m; ++r)
        for (int64_t c = 0; c < p.n; ++c) {
          const std::size_t i = std::size_t(r * p.n + c);
          if (c >= begin && c < end) ASSERT_NEAR(got[i], full[i], 2e-5) << isa_name(isa) << " " << r << "," << c;
          else ASSERT_EQ(got[i], p.y0[i]) << isa_name(isa) << " untouched " << r << "," << c;
        }
    }
  }
}

TEST(Gemm, RepeatedCallsAreBitIdentical) {
  for (WeightFormat f : kFormats) {
    const Problem p(64, 300, 160, f, WeightLayout::out_in, 500);
    for (Isa isa : supported_isas()) {
      std::vector<float> first(p.y0), second(p.y0);
      gemm(p.args(first.data(), Activation::gelu_tanh), isa);
      gemm(p.args(second.data(), Activation::gelu_tanh), isa);
      EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)), 0) << isa_name(isa);
    }
  }
}

// One-hot rows of x read single weights back through each kernel's in-register decode; they must
// equal the codec's own bfp8_decode_value of the same groups (and bf16 rounding for bf16).
TEST(Gemm, InKernelDecodeEqualsCodec) {
  const int64_t n = 64, k = 48;
  Tensor src = random_tensor(DType::F32, {n, k}, 600);
  for (int64_t i = 0; i < n * k; ++i) src.data<float>()[i] *= std::ldexp(1.0f, int((i / 16) % 11) - 5);
  for (WeightFormat f : {WeightFormat::bf16, WeightFormat::bfp8_b}) {
    const PackedWeights w = PackedWeights::pack(src.view(), WeightLayout::out_in, f);
    std::vector<float> x(std::size_t(k * k), 0.0f);
    for (int64_t r = 0; r < k; ++r) x[std::size_t(r * k + r)] = 1.0f;
    Tensor scratch(DType::U8, {int64_t(gemm_scratch_bytes(w, k))});
    for (Isa isa : supported_isas()) {
      std::vector<float> y(std::size_t(k * n), -1.0f);
      GemmArgs a;
      a.x = x.data(), a.x_stride = k, a.m = k, a.weights = &w, a.y = y.data(), a.y_stride = n;
      a.n_begin = 0, a.n_end = n, a.scratch = scratch.bytes(), a.scratch_bytes = scratch.nbytes();
      gemm(a, isa);
      for (int64_t c = 0; c < n; ++c) {
        for (int64_t g = 0; g < k / 16; ++g) {
          uint8_t mantissas[16];
          const uint8_t e = format::bfp8_encode_group(src.data<float>() + c * k + g * 16, mantissas);
          for (int64_t i = 0; i < 16; ++i) {
            const int64_t kk = g * 16 + i;
            const float source = src.data<float>()[c * k + kk];
            const float expected = f == WeightFormat::bf16 ? round_to_bf16(source) : format::bfp8_decode_value(e, mantissas[i]);
            ASSERT_EQ(y[std::size_t(kk * n + c)], expected) << isa_name(isa) << " " << weight_format_name(f) << " " << c << "," << kk;
          }
        }
      }
    }
  }
}

TEST(Gemm, RejectsBadArguments) {
  const Problem p(8, 64, 96, WeightFormat::bf16, WeightLayout::out_in, 700);
  std::vector<float> y(p.y0);
  const auto expect_error = [&](auto edit) {
    GemmArgs a = p.args(y.data());
    edit(a);
    EXPECT_THROW(gemm(a), Error);
  };
  expect_error([](GemmArgs& a) { a.m = 0; });
  expect_error([](GemmArgs& a) { a.m = kGemmMaxRows + 1; });
  expect_error([](GemmArgs& a) { a.n_begin = 16; });
  expect_error([](GemmArgs& a) { a.n_end = 97; });
  expect_error([](GemmArgs& a) { a.n_end = 48; });
  expect_error([](GemmArgs& a) { a.scratch_bytes = 16; });
  expect_error([](GemmArgs& a) { a.x_stride = 10; });
  expect_error([](GemmArgs& a) { a.weights = nullptr; });
}

}  // namespace
}  // namespace ditmk::cpu
