#pragma once
// y[M, n_begin:n_end] (fp32) = epilogue(x[M,K] * W^T) for the small-M products of the action head.
//
// x is fp32 rows. With bf16 or bfp8_b weights every ISA first rounds x to bf16 (into the caller's
// scratch), so all ISAs multiply the same bf16 x bf16 products (exact in fp32) and differ only in
// fp32 summation order; with fp32 weights x is used as given. Accumulation is fp32 throughout.
// With int8 weights x is quantized per row into 32-value blocks like the weights (int8_block.hpp),
// each block's products are summed exactly in int32 and its scales applied in fp32, block after
// block: every int8 kernel (AVX512-VNNI, AVX-VNNI, AVX2, portable; see int8_dot_for) gives the same bits.
// A call computes only the column range [n_begin, n_end): n_begin a multiple of kGemmColumnStep,
// n_end a multiple of it or N, so threads can split N. No heap allocation and no threads inside.
#include <cstddef>
#include <cstdint>

#include "ditmk/cpu/kernels/gemm_blocking.hpp"
#include "ditmk/cpu/kernels/int8_block.hpp"
#include "ditmk/cpu/kernels/isa.hpp"
#include "ditmk/cpu/kernels/packed_weights.hpp"

namespace ditmk::cpu {

inline constexpr int64_t kGemmMaxRows = 64;
// Rows per gemm() call when gemm_rows walks more than kGemmMaxRows: 60 is a multiple of every
// kernel's row tile (12 AVX-512, 6 AVX512-VNNI int8, 4 portable, 3 AVX2, 2 AVX2 int8), so only the
// last call has a short tile (64-row calls leave one in every call: 4 of 12 rows on AVX-512). Prepared
// rows whose 60 rows do not end on a 64-byte line are walked in 64-row calls.
inline constexpr int64_t kGemmRowChunk = 60;
inline constexpr int64_t kGemmColumnStep = kPanelWidth;

enum class Activation { none, relu, gelu_tanh, silu };
// store: y = act(xW^T + b); accumulate: y += act(xW^T + b) (a residual add).
enum class OutputMode { store, accumulate };

struct GemmArgs {
  const float* x = nullptr;
  int64_t x_stride = 0;  // floats between rows of x
  int64_t m = 0;         // 1..kGemmMaxRows
  const PackedWeights* weights = nullptr;
  const float* bias = nullptr;  // N values, or null
  Activation activation = Activation::none;
  OutputMode output = OutputMode::store;
  float* y = nullptr;
  int64_t y_stride = 0;  // floats between rows of y
  int64_t n_begin = 0, n_end = 0;
  std::byte* scratch = nullptr;  // gemm_scratch_bytes(weights, m) bytes, 64-byte aligned
  std::size_t scratch_bytes = 0;
  // With bf16 / bfp8_b / int8 weights: scratch already holds these m rows of x as gemm_prepare_x left them
  // (same isa, same weights' K), so the call does not round x again. Lets one rounding serve every
  // column block a caller walks over the same rows.
  bool x_prepared = false;
  // The loop nest's blocking; k_block = 0 (the default) takes gemm_blocking(weights, isa, m). Results do
  // not depend on it (gemm_blocking.hpp), only the speed does.
  GemmBlocking blocking;
};

// Scratch one call needs (room for x rounded to bf16 or quantized to int8); one buffer per concurrent
// caller.
std::size_t gemm_scratch_bytes(const PackedWeights& weights, int64_t m);

// Rounds the args.m rows of x (any number of rows) into args.scratch exactly as gemm() would; a
// later gemm() over rows [r0, r0 + 64) of them passes scratch + r0 * gemm_prepared_row_bytes() and
// x_prepared = true. Nothing to do for fp32 weights.
void gemm_prepare_x(const GemmArgs& args, Isa isa);
// The same for x's columns [k_begin, k_end) only (k_begin on the kGemmColumnStep grid, k_end on it or
// K): threads can prepare the columns each of them produced, and the rest of the prepared rows is
// left as it was.
void gemm_prepare_x_columns(const GemmArgs& args, Isa isa, int64_t k_begin, int64_t k_end);
std::size_t gemm_prepared_row_bytes(const PackedWeights& weights, Isa isa);

// Checks args (ditmk::Error naming the field) and runs the kernel family of isa, which must be
// supported here. amx_bf16 runs the AVX512-BF16 kernels (every AMX CPU has them).
void gemm(const GemmArgs& args, Isa isa);
inline void gemm(const GemmArgs& args) { gemm(args, selected_isa()); }
// gemm() over any number of rows (args.m >= 1; the precompute's VL tokens): calls of up to
// kGemmRowChunk rows walked in column blocks of gemm_column_block_panels() panels, each block used by
// every call before the next, so that it stays in L2 and the weights leave memory once. With
// x_prepared, scratch holds every row as gemm_prepare_x left them (row r at r *
// gemm_prepared_row_bytes()); otherwise it has room for one call (gemm_scratch_bytes(weights,
// kGemmMaxRows)) and each call rounds its own rows. Same bits as one gemm() over all rows would give
// (a row's result does not depend on the other rows of its call).
void gemm_rows(const GemmArgs& args, Isa isa);
// gemm() for int8 weights with the int8 dot product named rather than the one int8_dot_for picks
// (which must be one of supported_int8_dots()): how the tests reach every int8 kernel of a CPU.
void gemm_int8(const GemmArgs& args, Int8Dot dot);

// The slow oracle: double-precision sums over the same packed (rounded) weights and the same
// bf16-rounded x, written in float; same column range and epilogue. For int8 weights: x quantized
// by quantize_int8_activations, each block's sum of signed products in 64-bit integers (no offset, no
// correction), then the kernels' fp32 scale application and epilogue, so it gives their bits
// (except the gelu_tanh and silu activations, evaluated here in double).
void gemm_reference(const GemmArgs& args);

}  // namespace ditmk::cpu
