#include "ditmk/cpu/kernels/gemm.hpp"

#include <algorithm>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/gemm_isa.hpp"

namespace ditmk::cpu {
namespace {

void check_args(const GemmArgs& a) {
  require(a.weights != nullptr, "gemm: weights is null");
  const PackedWeights& w = *a.weights;
  require(a.m >= 1 && a.m <= kGemmMaxRows, "gemm: m = {} outside 1..{}", a.m, kGemmMaxRows);
  require(a.x != nullptr && a.x_stride >= w.k(), "gemm: x is null or x_stride {} < K = {}", a.x_stride, w.k());
  require(a.y != nullptr && a.y_stride >= w.n(), "gemm: y is null or y_stride {} < N = {}", a.y_stride, w.n());
  require(a.n_begin >= 0 && a.n_begin < a.n_end && a.n_end <= w.n(), "gemm: column range [{}, {}) not inside [0, {})",
          a.n_begin, a.n_end, w.n());
  require(a.n_begin % kGemmColumnStep == 0 && (a.n_end % kGemmColumnStep == 0 || a.n_end == w.n()),
          "gemm: column range [{}, {}) is not on the {}-column grid", a.n_begin, a.n_end, kGemmColumnStep);
  const std::size_t need = gemm_scratch_bytes(w, a.m);
  require(a.scratch_bytes >= need && (need == 0 || a.scratch != nullptr), "gemm: scratch has {} bytes, needs {}",
          a.scratch_bytes, need);
  require(reinterpret_cast<uintptr_t>(a.scratch) % 64 == 0, "gemm: scratch is not 64-byte aligned");
  const GemmBlocking& b = a.blocking;
  require(b.k_block == 0 || (b.k_block % kGemmBlockKStep == 0 && b.k_block <= kGemmMaxBlockK && b.prefetch_blocks >= 1),
          "gemm: blocking k_block = {} (a multiple of {} up to {}) or prefetch_blocks = {} (>= 1) out of range", b.k_block,
          kGemmBlockKStep, kGemmMaxBlockK, b.prefetch_blocks);
}

// args with the blocking filled in where the caller left it to the machine.
GemmArgs with_blocking(const GemmArgs& args, Isa isa) {
  GemmArgs a = args;
  if (a.blocking.k_block == 0) a.blocking = gemm_blocking(*a.weights, isa, a.m);
  // A block the kernel decodes or widens lands in its fixed stack buffer.
  require(a.blocking.k_block <= kGemmMaxBufferedBlockK || gemm_reads_in_place(isa, a.weights->format()),
          "gemm: blocking k_block = {} above {}, the largest block the {} kernel decodes {} weights into", a.blocking.k_block,
          kGemmMaxBufferedBlockK, isa_name(isa), weight_format_name(a.weights->format()));
  return a;
}

// The int8 kernel of a dot product the CPU has, on checked arguments.
void run_int8(const GemmArgs& args, Int8Dot dot) {
  switch (dot) {
    case Int8Dot::portable: return detail::gemm_int8_portable(args);
    case Int8Dot::avx2: return detail::gemm_int8_avx2(args);
    case Int8Dot::avx_vnni: return detail::gemm_int8_avx_vnni(args);
    case Int8Dot::avx512_vnni: return detail::gemm_int8_avx512_vnni(args);
  }
}

}  // namespace

std::size_t gemm_scratch_bytes(const PackedWeights& weights, int64_t m) {
  switch (weights.format()) {
    case WeightFormat::fp32: return 0;
    case WeightFormat::int8: return std::size_t(m * detail::int8_row_stride(weights)) * sizeof(Int8XBlock);
    case WeightFormat::bf16:
    case WeightFormat::bfp8_b: break;
  }
  return std::size_t(m * detail::scratch_row_stride(weights)) * sizeof(float);
}

std::size_t gemm_prepared_row_bytes(const PackedWeights& weights, Isa isa) {
  if (weights.format() == WeightFormat::int8) return std::size_t(detail::int8_row_stride(weights)) * sizeof(Int8XBlock);
  return std::size_t(detail::scratch_row_stride(weights) * bf16_operand_bytes(isa));
}

void gemm_prepare_x_columns(const GemmArgs& args, Isa isa, int64_t k_begin, int64_t k_end) {
  require(args.weights != nullptr && args.x != nullptr && args.m >= 1, "gemm_prepare_x: weights, x or rows missing");
  const PackedWeights& w = *args.weights;
  require(k_begin >= 0 && k_begin < k_end && k_end <= w.k() && k_begin % kGemmColumnStep == 0 &&
              (k_end % kGemmColumnStep == 0 || k_end == w.k()),
          "gemm_prepare_x: columns [{}, {}) are not a range of the {}-column grid inside [0, {})", k_begin, k_end,
          kGemmColumnStep, w.k());
  if (w.format() == WeightFormat::fp32) return;
  require(args.scratch_bytes >= gemm_scratch_bytes(w, args.m), "gemm_prepare_x: scratch has {} bytes, needs {}",
          args.scratch_bytes, gemm_scratch_bytes(w, args.m));
  require(isa_supported(isa), "gemm: instruction set {} is not supported by this CPU", isa_name(isa));
  const detail::KRange k{k_begin, k_end};
  if (w.format() == WeightFormat::int8) {
    switch (int8_dot_for(isa)) {
      case Int8Dot::portable: return detail::quantize_x_portable(args, k);
      case Int8Dot::avx2:
      case Int8Dot::avx_vnni: return detail::quantize_x_avx2(args, k);
      case Int8Dot::avx512_vnni: return detail::quantize_x_avx512(args, k);
    }
  }
  if (isa >= Isa::avx512_bf16) detail::prepare_x_avx512(args, k);
  else if (isa >= Isa::avx2) detail::prepare_x_avx2(args, k);  // avx512f reads the same floats
  else detail::prepare_x_portable(args, k);
}

void gemm_prepare_x(const GemmArgs& args, Isa isa) {
  require(args.weights != nullptr, "gemm_prepare_x: weights missing");
  gemm_prepare_x_columns(args, isa, 0, args.weights->k());
}

void gemm(const GemmArgs& args, Isa isa) {
  check_args(args);
  require(isa_supported(isa), "gemm: instruction set {} is not supported by this CPU", isa_name(isa));
  const GemmArgs a = with_blocking(args, isa);
  if (a.weights->format() == WeightFormat::int8) return run_int8(a, int8_dot_for(isa));
  switch (isa) {
    case Isa::portable: return detail::gemm_portable(a);
    case Isa::avx2: return detail::gemm_avx2(a);
    case Isa::avx512f: return detail::gemm_avx512f(a);
    case Isa::avx512_bf16:
    case Isa::amx_bf16: return detail::gemm_avx512(a);
  }
}

void gemm_rows(const GemmArgs& args, Isa isa) {
  require(args.weights != nullptr && args.m >= 1, "gemm_rows: weights or rows missing");
  const PackedWeights& w = *args.weights;
  const int64_t block = gemm_column_block_panels(w, isa, args.m);
  const std::size_t row_bytes = gemm_prepared_row_bytes(w, isa);
  const bool prepared = args.x_prepared && w.format() != WeightFormat::fp32;
  // A prepared call's rows start 64-byte aligned in scratch: 64-row calls where 60 rows are not a
  // whole number of 64-byte lines (int8 rows of some widths).
  const bool aligned_chunks = !prepared || (std::size_t(kGemmRowChunk) * row_bytes) % 64 == 0;
  const int64_t chunk = args.m <= kGemmMaxRows ? args.m : aligned_chunks ? kGemmRowChunk : kGemmMaxRows;
  GemmArgs call = args;
  call.x_prepared = prepared;
  for (int64_t n0 = args.n_begin; n0 < args.n_end; n0 += block * kGemmColumnStep) {
    call.n_begin = n0, call.n_end = std::min(args.n_end, n0 + block * kGemmColumnStep);
    for (int64_t r0 = 0; r0 < args.m; r0 += chunk) {
      call.m = std::min(chunk, args.m - r0);
      call.x = args.x + r0 * args.x_stride, call.y = args.y + r0 * args.y_stride;
      if (prepared) {
        const std::size_t offset = std::size_t(r0) * row_bytes;
        require(args.scratch_bytes >= offset, "gemm_rows: scratch has {} bytes, needs more than {}", args.scratch_bytes, offset);
        call.scratch = args.scratch + offset, call.scratch_bytes = args.scratch_bytes - offset;
      }
      gemm(call, isa);
    }
  }
}

void gemm_int8(const GemmArgs& args, Int8Dot dot) {
  check_args(args);
  require(args.weights->format() == WeightFormat::int8, "gemm_int8: weights are {}, not int8",
          weight_format_name(args.weights->format()));
  require(int8_dot_supported(dot), "gemm: int8 dot product {} is not supported by this CPU", int8_dot_name(dot));
  // int8 blocks are the same bytes on every dot product, so the blocking does not depend on it.
  run_int8(with_blocking(args, selected_isa()), dot);
}

}  // namespace ditmk::cpu
