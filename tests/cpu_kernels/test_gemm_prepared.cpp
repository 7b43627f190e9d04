// One rounding of x shared by many GEMM calls (gemm_prepare_x + x_prepared) gives exactly what each
// call rounding x itself gives, on every ISA and for row chunks past the first.
#include <gtest/gtest.h>

#include <vector>

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

}  // namespace
}  // namespace ditmk::cpu
