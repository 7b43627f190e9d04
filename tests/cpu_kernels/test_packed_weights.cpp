#include <gtest/gtest.h>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/packed_weights.hpp"
#include "ditmk/format/bfp8.hpp"
#include "random_data.hpp"

namespace ditmk::cpu {
namespace {

using testing::random_tensor;

// Source element W[n][k] of a [N,K] (out_in) or [K,N] (in_out) tensor, as float.
float source_value(const Tensor& t, WeightLayout layout, int64_t n, int64_t k) {
  const int64_t cols = t.shape()[1];
  const std::size_t i = std::size_t(layout == WeightLayout::out_in ? n * cols + k : k * cols + n);
  return float(t.view().at(i));
}

TEST(PackedWeights, Bf16IsRoundToNearestEvenOfEverySourceDtype) {
  for (DType dtype : {DType::F32, DType::BF16, DType::F16}) {
    for (WeightLayout layout : {WeightLayout::out_in, WeightLayout::in_out}) {
      const int64_t n = 45, k = 37;
      const Tensor src = random_tensor(dtype, layout == WeightLayout::out_in ? Shape{n, k} : Shape{k, n}, 11);
      const PackedWeights w = PackedWeights::pack(src.view(), layout, WeightFormat::bf16);
      EXPECT_EQ(w.n(), n);
      EXPECT_EQ(w.k(), k);
      EXPECT_EQ(w.k_padded(), 48);
      for (int64_t nn = 0; nn < n; ++nn)
        for (int64_t kk = 0; kk < k; ++kk)
          ASSERT_EQ(w.value(nn, kk), round_to_bf16(source_value(src, layout, nn, kk))) << nn << "," << kk;
    }
  }
}

TEST(PackedWeights, Fp32KeepsValuesExactly) {
  const Tensor src = random_tensor(DType::F32, {70, 33}, 12);
  const PackedWeights w = PackedWeights::pack(src.view(), WeightLayout::in_out, WeightFormat::fp32);
  EXPECT_EQ(w.n(), 33);
  EXPECT_EQ(w.k(), 70);
  for (int64_t n = 0; n < 33; ++n)
    for (int64_t k = 0; k < 70; ++k) ASSERT_EQ(w.value(n, k), source_value(src, WeightLayout::in_out, n, k));
}

// Groups run along K within one output column, and each group decodes as the project's codec says.
TEST(PackedWeights, Bfp8GroupsFollowKAndMatchTheCodec) {
  const int64_t n = 40, k = 50;
  Tensor src = random_tensor(DType::F32, {n, k}, 13);
  // Widely different magnitudes per group make a wrong grouping visible.
  for (int64_t i = 0; i < n * k; ++i) src.data<float>()[i] *= float(1 << ((i / 16) % 9));
  const PackedWeights w = PackedWeights::pack(src.view(), WeightLayout::out_in, WeightFormat::bfp8_b);
  for (int64_t nn = 0; nn < n; ++nn) {
    for (int64_t g = 0; g < w.k_padded() / 16; ++g) {
      float group[16] = {};
      for (int64_t i = 0; i < 16 && g * 16 + i < k; ++i) group[i] = src.data<float>()[nn * k + g * 16 + i];
      uint8_t mantissas[16];
      const uint8_t e = format::bfp8_encode_group(group, mantissas);
      for (int64_t i = 0; i < 16 && g * 16 + i < k; ++i)
        ASSERT_EQ(w.value(nn, g * 16 + i), format::bfp8_decode_value(e, mantissas[i])) << nn << "," << g * 16 + i;
    }
  }
  EXPECT_EQ(w.bytes(), std::size_t(2 * 4 * PackedWeights::kBfp8GroupBytes));
}

TEST(PackedWeights, RejectsBadInput) {
  const Tensor three_d(DType::F32, {2, 2, 2});
  EXPECT_THROW(PackedWeights::pack(three_d.view(), WeightLayout::out_in, WeightFormat::bf16), Error);
  const Tensor ints(DType::I32, {4, 4});
  EXPECT_THROW(PackedWeights::pack(ints.view(), WeightLayout::out_in, WeightFormat::bf16), Error);
  Tensor with_nan = random_tensor(DType::F32, {4, 16}, 14);
  with_nan.data<float>()[5] = std::numeric_limits<float>::quiet_NaN();
  try {
    PackedWeights::pack(with_nan.view(), WeightLayout::out_in, WeightFormat::bfp8_b, "blocks.0.ff");
    FAIL() << "NaN accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("blocks.0.ff"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_weight_format("int4"), Error);
}

}  // namespace
}  // namespace ditmk::cpu
