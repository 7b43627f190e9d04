#pragma once
// The per-ISA GEMM entry points behind gemm(): each lives in a file compiled for its ISA and is
// called only after gemm() has checked the arguments and the CPU.
#include "ditmk/cpu/kernels/gemm.hpp"

namespace ditmk::cpu::detail {

// Row stride (in elements) of x rounded to bf16 in the scratch. The tile reads 12 rows in lockstep;
// with a power-of-two row pitch (K = 2048, 6144 as bf16) all 12 current lines fall in one L1 set and
// evict each other, so each row is skewed by one extra cache line (32 bf16 or 16 floats suffice;
// 32 elements covers both element sizes).
inline int64_t scratch_row_stride(const PackedWeights& w) { return w.k_padded() + 32; }

void gemm_portable(const GemmArgs& args);
void gemm_avx2(const GemmArgs& args);
void gemm_avx512(const GemmArgs& args);

// x rounded for the bf16-weight kernels, into args.scratch with scratch_row_stride(): bf16 pairs
// (AVX-512) or bf16-valued floats (AVX2, portable).
void prepare_x_portable(const GemmArgs& args);  // shared by AVX2 and portable
void prepare_x_avx512(const GemmArgs& args);

}  // namespace ditmk::cpu::detail
