// One rounding of x shared by many GEMM calls (gemm_prepare_x + x_prepared) gives exactly what each
// call rounding x itself gives, on every ISA and for row chunks past the first.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <iterator>
#include <vector>

#include "ditmk/core/dtype.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/gemm.hpp"
#include "random_data.hpp"

namespace ditmk::cpu {
namespace {

TEST(GemmPrepared, SharedRoundingEqualsPerCallRounding) {
  const int64_t rows = 150, k = 200, n = 96;
  const Tensor w = testing::random_tensor(DType::F32, {n, k}, 71);
  const std::vector<float> x = testing::random_normal(std::size_t(rows * k), 72);
  for (Isa isa : supported_isas()) {
    for (WeightFormat f : {WeightFormat::bf16, WeightFormat::bfp8_b, WeightFormat::int8}) {
      const PackedWeights packed = PackedWeights::pack(w.view(), WeightLayout::out_in, f);
      std::vector<float> direct(rows * n), shared(rows * n);
      alignas(64) static std::byte chunk_scratch[1 << 20];
      std::vector<std::byte> all(gemm_scratch_bytes(packed, rows) + 64);
      std::byte* base = all.data() + (64 - reinterpret_cast<uintptr_t>(all.data()) % 64) % 64;
      GemmArgs prep;
      prep.x = x.data(), prep.x_stride = k, prep.m = rows, prep.weights = &packed;
      prep.scratch = base, prep.scratch_bytes = all.size() - 64;
      gemm_prepare_x(prep, isa);
      const std::size_t row_bytes = gemm_prepared_row_bytes(packed, isa);
      for (int64_t r0 = 0; r0 < rows; r0 += kGemmMaxRows) {
        GemmArgs a;
        a.x = x.data() + r0 * k, a.x_stride = k, a.m = std::min(kGemmMaxRows, rows - r0), a.weights = &packed;
        a.y_stride = n, a.n_begin = 0, a.n_end = n, a.activation = Activation::gelu_tanh;
        a.y = direct.data() + r0 * n, a.scratch = chunk_scratch, a.scratch_bytes = sizeof chunk_scratch;
        gemm(a, isa);
        a.y = shared.data() + r0 * n, a.scratch = base + r0 * row_bytes, a.scratch_bytes = all.size() - 64 - r0 * row_bytes;
        a.x_prepared = true;
        gemm(a, isa);
      }
      EXPECT_EQ(direct, shared) << isa_name(isa) << " " << weight_format_name(f);
      EXPECT_NE(direct[rows * n - 1], 0.0f);
    }
  }
}

// gemm_rows over every row of a tall x (prepared once, or rounded by each call) gives exactly what one
// gemm() per 64-row chunk over the whole column range gives. K is long enough that a column block
// is one or two of the four panels on 512 KiB to 1 MiB of L2, so the walk crosses blocks.
TEST(GemmRows, EqualsOneCallPerChunk) {
  const int64_t rows = 150, k = 3000, n = 160;
  const Tensor w = testing::random_tensor(DType::F32, {n, k}, 75);
  const std::vector<float> x = testing::random_normal(std::size_t(rows * k), 76);
  const std::vector<float> bias = testing::random_normal(std::size_t(n), 77);
  for (Isa isa : supported_isas()) {
    for (WeightFormat f : {WeightFormat::fp32, WeightFormat::bf16, WeightFormat::bfp8_b, WeightFormat::int8}) {
      const PackedWeights packed = PackedWeights::pack(w.view(), WeightLayout::out_in, f);
      std::vector<float> chunks(rows * n), walked(rows * n, -1.0f), prepared(rows * n, -1.0f);
      alignas(64) static std::byte call_scratch[1 << 20];
      GemmArgs a;
      a.x = x.data(), a.x_stride = k, a.weights = &packed, a.bias = bias.data(), a.activation = Activation::silu;
      a.y_stride = n, a.n_begin = 32, a.n_end = n, a.scratch = call_scratch, a.scratch_bytes = sizeof call_scratch;
      for (int64_t r0 = 0; r0 < rows; r0 += kGemmMaxRows) {
        GemmArgs c = a;
        c.x = x.data() + r0 * k, c.m = std::min(kGemmMaxRows, rows - r0), c.y = chunks.data() + r0 * n;
        gemm(c, isa);
      }
      a.m = rows, a.y = walked.data();
      gemm_rows(a, isa);
      std::vector<std::byte> all(gemm_scratch_bytes(packed, rows) + 64);
      a.scratch = all.data() + (64 - reinterpret_cast<uintptr_t>(all.data()) % 64) % 64, a.scratch_bytes = all.size() - 64;
      gemm_prepare_x(a, isa);
      a.x_prepared = true, a.y = prepared.data();
      gemm_rows(a, isa);
      for (int64_t r = 0; r < rows; ++r) {
        EXPECT_EQ(walked[r * n + 31], -1.0f) << "column 31 is outside the range";
        for (int64_t c = 32; c < n; ++c) {
          ASSERT_EQ(std::bit_cast<uint32_t>(walked[r * n + c]), std::bit_cast<uint32_t>(chunks[r * n + c]))
              << isa_name(isa) << " " << weight_format_name(f) << " row " << r << " col " << c;
          ASSERT_EQ(std::bit_cast<uint32_t>(prepared[r * n + c]), std::bit_cast<uint32_t>(chunks[r * n + c]))
              << isa_name(isa) << " " << weight_format_name(f) << " row " << r << " col " << c;
        }
      }
    }
  }
}

// Preparing x's columns piece by piece (as threads do with the columns each produced) leaves the
// same bytes as preparing all of them at once.
TEST(GemmPrepared, ColumnPiecesEqualTheWhole) {
  const int64_t rows = 20, k = 300, n = 32;
  const Tensor w = testing::random_tensor(DType::F32, {n, k}, 73);
  const std::vector<float> x = testing::random_normal(std::size_t(rows * k), 74);
  for (Isa isa : supported_isas()) {
    for (WeightFormat f : {WeightFormat::bf16, WeightFormat::bfp8_b, WeightFormat::int8}) {
      const PackedWeights packed = PackedWeights::pack(w.view(), WeightLayout::out_in, f);
      const std::size_t bytes = gemm_scratch_bytes(packed, rows);
      alignas(64) static std::byte whole[1 << 16], pieces[1 << 16];
      ASSERT_LE(bytes, sizeof whole);
      std::memset(whole, 0x5a, sizeof whole), std::memset(pieces, 0x5a, sizeof pieces);
      GemmArgs a;
      a.x = x.data(), a.x_stride = k, a.m = rows, a.weights = &packed, a.scratch_bytes = bytes;
      a.scratch = whole;
      gemm_prepare_x(a, isa);
      a.scratch = pieces;
      for (auto [k0, k1] : {std::pair<int64_t, int64_t>{96, 160}, {0, 96}, {160, 288}, {288, 300}})
        gemm_prepare_x_columns(a, isa, k0, k1);
      EXPECT_EQ(std::memcmp(whole, pieces, sizeof whole), 0) << isa_name(isa) << " " << weight_format_name(f);
    }
  }
  GemmArgs a;
  const PackedWeights packed = PackedWeights::pack(w.view(), WeightLayout::out_in, WeightFormat::bf16);
  std::vector<std::byte> scratch(gemm_scratch_bytes(packed, rows));
  a.x = x.data(), a.x_stride = k, a.m = rows, a.weights = &packed, a.scratch = scratch.data(), a.scratch_bytes = scratch.size();
  EXPECT_THROW(gemm_prepare_x_columns(a, selected_isa(), 16, 64), Error);
  EXPECT_THROW(gemm_prepare_x_columns(a, selected_isa(), 0, 100), Error);
  EXPECT_THROW(gemm_prepare_x_columns(a, selected_isa(), 64, 64), Error);
}

// The ISAs that prepare bf16-valued floats (AVX2's vector code, the portable loop) round every
// value as f32_to_bf16 does: ties both ways, the largest finite values (rounding to inf), inf,
// NaN (quieted), subnormals, signed zeros, and the zero padding past K.
TEST(GemmPrepared, FloatRoundingIsTheScalarRule) {
  const int64_t rows = 3, k = 77;
  std::vector<float> x = testing::random_normal(std::size_t(rows * k), 75, 3.0f);
  const uint32_t special[] = {0x3f808000u, 0x3f818000u, 0xbf808000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u,
                              0xff800000u, 0x7fc00001u, 0x7f800001u, 0xffa00000u, 0x00000001u, 0x807fffffu,
                              0x80000000u, 0x00000000u, 0x3f80ffffu, 0x3f807fffu};
  for (std::size_t i = 0; i < std::size(special); ++i) x[i + 5] = std::bit_cast<float>(special[i]);
  const Tensor w = testing::random_tensor(DType::F32, {32, k}, 76);
  const PackedWeights packed = PackedWeights::pack(w.view(), WeightLayout::out_in, WeightFormat::bf16);
  for (Isa isa : supported_isas()) {
    if (isa >= Isa::avx512_bf16) continue;  // bf16 pairs there, covered by the GEMM tests
    const std::size_t row_floats = gemm_prepared_row_bytes(packed, isa) / sizeof(float);
    std::vector<float> out(row_floats * rows, 42.0f);
    GemmArgs a;
    a.x = x.data(), a.x_stride = k, a.m = rows, a.weights = &packed;
    a.scratch = reinterpret_cast<std::byte*>(out.data()), a.scratch_bytes = out.size() * sizeof(float);
    gemm_prepare_x(a, isa);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t i = 0; i < packed.k_padded(); ++i) {
        const float want = i < k ? round_to_bf16(x[std::size_t(r * k + i)]) : 0.0f;
        ASSERT_EQ(std::bit_cast<uint32_t>(out[std::size_t(r) * row_floats + std::size_t(i)]), std::bit_cast<uint32_t>(want))
            << isa_name(isa) << " row " << r << " column " << i;
      }
  }
}

}  // namespace
}  // namespace ditmk::cpu
