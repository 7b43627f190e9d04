#include "ditmk/cpu/kernels/gemm_blocking.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/gemm.hpp"

namespace ditmk::cpu {
bool gemm_reads_in_place(Isa isa, WeightFormat format) {
  switch (format) {
    case WeightFormat::fp32:
    case WeightFormat::int8: return true;
    case WeightFormat::bf16: return isa >= Isa::avx512f;  // vdpbf16ps, or widened in registers
    case WeightFormat::bfp8_b: return false;
  }
  return false;
}

int64_t bf16_operand_bytes(Isa isa) {
  return isa >= Isa::avx512_bf16 ? int64_t(sizeof(uint16_t)) : int64_t(sizeof(float));
}

BlockRowBytes block_row_bytes(Isa isa, WeightFormat format) {
  const int64_t fp32_row = kPanelWidth * int64_t(sizeof(float));
  switch (format) {
    case WeightFormat::fp32: return {fp32_row, fp32_row};
    case WeightFormat::int8: {
      const int64_t row = int64_t(PackedWeights::kInt8GroupBytes) / kInt8Block;
      return {row, row};
    }
    case WeightFormat::bf16: return {fp32_row / 2, kPanelWidth * bf16_operand_bytes(isa)};
    case WeightFormat::bfp8_b:
      return {int64_t(PackedWeights::kBfp8GroupBytes) / kKAlign, kPanelWidth * bf16_operand_bytes(isa)};
  }
  return {fp32_row, fp32_row};
}

namespace {
// Bytes of one prepared row of x over kGemmBlockKStep values of K.
int64_t x_bytes_per_k_step(Isa isa, WeightFormat format) {
  switch (format) {
    case WeightFormat::fp32: return kGemmBlockKStep * int64_t(sizeof(float));
    case WeightFormat::int8: return int64_t(sizeof(Int8XBlock)) * kGemmBlockKStep / kInt8Block;
    case WeightFormat::bf16:
    case WeightFormat::bfp8_b: return kGemmBlockKStep * bf16_operand_bytes(isa);
  }
  return kGemmBlockKStep * int64_t(sizeof(float));
}
}  // namespace

GemmBlocking derive_gemm_blocking(const CacheSizes& caches, Isa isa, WeightFormat format, int64_t k_padded, int64_t rows) {
  const BlockRowBytes row = block_row_bytes(isa, format);
  // A K shorter than the block makes the block the whole K (rounded up to the grid): no tail block.
  const int64_t whole_k = (std::max<int64_t>(k_padded, 1) + kGemmBlockKStep - 1) / kGemmBlockKStep * kGemmBlockKStep;
  const bool in_place = gemm_reads_in_place(isa, format);
  if (in_place) {
    // Per K row of a block: the call's x rows, the block and the one prefetched ahead, all in half
    // of L2 (the other half: y's lines, the stack, what the hardware prefetchers bring in).
    const int64_t l2_bytes_per_step =
        std::max<int64_t>(rows, 1) * x_bytes_per_k_step(isa, format) + kGemmBlockKStep * row.streamed * (1 + kGemmPrefetchPanels);
    const int64_t fit = int64_t(caches.l2 / 2) / l2_bytes_per_step * kGemmBlockKStep;
    if (fit >= kGemmMaxBufferedBlockK) {
      // K in equal blocks of at most `fit` rows, on the grid.
      const int64_t blocks = (whole_k + fit - 1) / fit;
      const int64_t k_block = (whole_k / kGemmBlockKStep + blocks - 1) / blocks * kGemmBlockKStep;
      return {k_block, kGemmPrefetchPanels};
    }
  }
  // The block being computed and the prefetch_blocks coming ones as streamed, plus the buffer the
  // tiles read when the block is decoded.
  const int64_t l1_bytes_per_k = row.streamed * (1 + kGemmPrefetchBlocks) + (in_place ? 0 : row.read);
  // The whole L1D, rounded down to a power of two of rows: half of it (128 rows on Zen 5's 48 KiB)
  // measured ~10% slower than 256 rows on the cold one-block benchmark (docs/performance.md).
  const int64_t fit = int64_t(caches.l1d) / l1_bytes_per_k;
  int64_t k_block = kGemmBlockKStep;
  while (k_block * 2 <= std::min(fit, kGemmMaxBufferedBlockK)) k_block *= 2;
  return {std::min(k_block, whole_k), kGemmPrefetchBlocks};
}

int64_t derive_column_block_panels(const CacheSizes& caches, Isa isa, const PackedWeights& w, int64_t rows_total) {
  if (rows_total <= kGemmMaxRows) return w.panels();
  const std::size_t x_call = std::size_t(kGemmMaxRows) * gemm_prepared_row_bytes(w, isa);
  // What one call's x leaves of L2, three quarters of it for the column block (the rest: the lines
  // of y, the call's stack and what the hardware prefetchers bring in ahead).
  const std::size_t room = caches.l2 > x_call ? (caches.l2 - x_call) / 4 * 3 : 0;
  return std::clamp<int64_t>(int64_t(room / w.panel_bytes()), 1, w.panels());
}

GemmBlockingOverride parse_gemm_blocking_override(std::string_view text) {
  GemmBlockingOverride o;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const std::size_t eq = item.find('=');
    require(eq != std::string_view::npos, "DITMK_GEMM_BLOCKING: \"{}\" is not name=value", item);
    const std::string_view name = item.substr(0, eq), value_text = item.substr(eq + 1);
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(value_text.data(), value_text.data() + value_text.size(), value);
    require(ec == std::errc{} && end == value_text.data() + value_text.size() && value > 0,
            "DITMK_GEMM_BLOCKING: {} = \"{}\" is not a positive integer", name, value_text);
    if (name == "k_block") {
      require(value % kGemmBlockKStep == 0 && value <= kGemmMaxBlockK,
              "DITMK_GEMM_BLOCKING: k_block = {} is not a multiple of {} up to {}", value, kGemmBlockKStep, kGemmMaxBlockK);
      o.k_block = value;
    } else if (name == "prefetch_blocks") {
      o.prefetch_blocks = value;
    } else if (name == "column_block_panels") {
      o.column_block_panels = value;
    } else {
      fail("DITMK_GEMM_BLOCKING: unknown field \"{}\" (k_block, prefetch_blocks, column_block_panels)", name);
    }
  }
  return o;
}

const GemmBlockingOverride& gemm_blocking_override() {
  static const GemmBlockingOverride o = [] {
    const char* env = std::getenv("DITMK_GEMM_BLOCKING");
    return env == nullptr ? GemmBlockingOverride{} : parse_gemm_blocking_override(env);
  }();
  return o;
}

GemmBlocking gemm_blocking(const PackedWeights& w, Isa isa, int64_t rows) {
  GemmBlocking b = derive_gemm_blocking(cache_sizes(), isa, w.format(), w.k_padded(), rows);
  const GemmBlockingOverride& o = gemm_blocking_override();
  if (o.k_block != 0) {
    b.k_block = gemm_reads_in_place(isa, w.format()) ? o.k_block : std::min(o.k_block, kGemmMaxBufferedBlockK);
  }
  if (o.prefetch_blocks != 0) b.prefetch_blocks = o.prefetch_blocks;
  return b;
}

int64_t gemm_column_block_panels(const PackedWeights& w, Isa isa, int64_t rows_total) {
  const GemmBlockingOverride& o = gemm_blocking_override();
  if (o.column_block_panels != 0 && rows_total > kGemmMaxRows) return std::min(o.column_block_panels, w.panels());
  return derive_column_block_panels(cache_sizes(), isa, w, rows_total);
}

std::string describe(const GemmBlocking& b) {
  return fmt::format("k_block {}, {} blocks prefetched ahead", b.k_block, b.prefetch_blocks);
}

}  // namespace ditmk::cpu
