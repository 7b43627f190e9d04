#pragma once
// The per-ISA GEMM entry points behind gemm(): each lives in a file compiled for its ISA and is
// called only after gemm() has checked the arguments and the CPU.
#include "ditmk/cpu/kernels/gemm.hpp"
#include "ditmk/cpu/kernels/int8_block.hpp"

namespace ditmk::cpu::detail {

// Row stride (in elements) of x rounded to bf16 in the scratch. The tile reads 12 rows in lockstep;
// with a power-of-two row pitch (K = 2048, 6144 as bf16) all 12 current lines fall in one L1 set and
// evict each other, so each row is skewed by one extra cache line (32 bf16 or 16 floats suffice;
// 32 elements covers both element sizes).
inline int64_t scratch_row_stride(const PackedWeights& w) { return w.k_padded() + 32; }

// Row stride of x quantized to int8 blocks in the scratch, in Int8XBlock. A row of 36-byte blocks is
// never a power of two bytes long, so no skew is needed.
inline int64_t int8_row_stride(const PackedWeights& w) { return w.k_padded() / kInt8Block; }

void gemm_portable(const GemmArgs& args);
// The plain C++ epilogue (bias, activation, store or accumulate) of every portable kernel.
void portable_epilogue_row(const float* acc, const float* bias, float* y, int64_t count, Activation act, OutputMode out);
void gemm_avx2(const GemmArgs& args);
void gemm_avx512(const GemmArgs& args);   // AVX512-BF16: vdpbf16ps
void gemm_avx512f(const GemmArgs& args);  // AVX-512F: zmm FMA on x as prepare_x_avx2 rounds it

// Columns [begin, end) of x that a preparation covers: begin a multiple of kPanelWidth, end one or
// K, which takes in the zero padding up to k_padded too.
struct KRange {
  int64_t begin, end;
  static KRange all(const PackedWeights& w) { return {0, w.k()}; }
  // Where preparation stops: end, or past the padding when end reaches K.
  int64_t stop(const PackedWeights& w) const { return end >= w.k() ? w.k_padded() : end; }
};

// x rounded for the bf16-weight kernels, into args.scratch with scratch_row_stride(): bf16 pairs
// (AVX-512) or bf16-valued floats (AVX2, portable).
void prepare_x_portable(const GemmArgs& args, KRange k);
void prepare_x_avx2(const GemmArgs& args, KRange k);  // the same floats as prepare_x_portable
void prepare_x_avx512(const GemmArgs& args, KRange k);

// int8 weights, one file per int8 dot product (Int8Dot); x quantized into Int8XBlock rows.
void gemm_int8_portable(const GemmArgs& args);
void gemm_int8_avx2(const GemmArgs& args);
void gemm_int8_avx_vnni(const GemmArgs& args);
void gemm_int8_avx512_vnni(const GemmArgs& args);
void quantize_x_portable(const GemmArgs& args, KRange k);
void quantize_x_avx2(const GemmArgs& args, KRange k);  // in the AVX2 int8 file; AVX-VNNI's too
void quantize_x_avx512(const GemmArgs& args, KRange k);
// gemm_reference() for int8 weights (gemm_int8_ref.cpp).
void gemm_int8_reference(const GemmArgs& args);

}  // namespace ditmk::cpu::detail
