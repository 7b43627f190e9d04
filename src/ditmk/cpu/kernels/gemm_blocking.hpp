#pragma once
// How the GEMM's loop nest (gemm_driver.hpp) is blocked, derived at run time from the machine's
// caches (cache_info.hpp), the ISA and the shape, the way BLIS and oneDNN block:
//
// - k_block: K rows of one weight block (kc). Every row tile of a call re-reads the block.
//   * Where the tiles read the packed weights in place (fp32, int8, bf16 on AVX512-BF16), blocks are
//     sized for L2: the call's x rows over the block's K, the block and the one prefetched ahead
//     must fit in half of L2 together, and K is cut into equal blocks of at most that many rows
//     (one block, the whole panel, where it all fits). Each tile runs a whole block with its
//     accumulators in registers; the first tile streams the block from memory in one long
//     sequential run that the hardware prefetchers follow, the later tiles find it in L2. Measured
//     on Zen 5 against 256-row blocks: cold one-thread bf16 GEMMs at M = 64 +30-45%, int8 +40-70%;
//     and against whole panels at K = 6144 and M = 49 (FF down: 600 KiB of x and two 384 KiB
//     panels do not fit 1 MiB), 1536- to 3072-row blocks up to +10% on one thread and +14% on
//     two, level at busier moments (docs/performance.md).
//   * Otherwise (a block decoded or widened into a stack buffer, or an L2 block under
//     kGemmMaxBufferedBlockK rows) the block must stay in L1D together with the blocks the tiles
//     prefetch ahead of it: L1D holds (1 + prefetch_blocks) blocks as streamed, plus the buffer the
//     tiles read; rounded down to a power of two of rows within [32, kGemmMaxBufferedBlockK].
// - column_block_panels: with more rows than one call takes (gemm_rows: the precompute's 300 VL
//   tokens run as 64-row calls) the columns are walked in blocks of this many panels, each used by
//   every 64-row call before the next: the block must stay in L2 beside one call's prepared x.
// - The register tile is fixed per ISA by its register count (kernel files: 12 x 32 on AVX-512 bf16,
//   6 x 32 int8 on AVX512-VNNI, 3 x 32 on AVX2, ...); x is read from L2 by every panel.
//
// The K order of the sums does not depend on any of this: every tile starts from the accumulators
// the previous block left and adds its K rows in ascending order, and int8 blocks of 32 are applied
// one after another, so results are the same bits for every k_block (tests/cpu_kernels check it).
//
// DITMK_GEMM_BLOCKING="k_block=N,prefetch_blocks=N,column_block_panels=N" (any subset) overrides the
// derivation for experiments; DITMK_CACHE_SIZES overrides the caches it starts from.
#include <cstdint>
#include <string>
#include <string_view>

#include "ditmk/cpu/kernels/cache_info.hpp"
#include "ditmk/cpu/kernels/isa.hpp"
#include "ditmk/cpu/kernels/packed_weights.hpp"

namespace ditmk::cpu {

// The largest weight block a kernel's stack buffer takes (512 x 32 fp32 = 64 KiB on AVX2); blocks
// read in place are bounded by K alone (and kGemmMaxBlockK, far above any model's K).
inline constexpr int64_t kGemmMaxBufferedBlockK = 512;
inline constexpr int64_t kGemmMaxBlockK = int64_t(1) << 20;
inline constexpr int64_t kGemmBlockKStep = 32;  // K rows: a whole int8 block and two bf16 k groups

struct GemmBlocking {
  int64_t k_block = 0;          // multiple of kGemmBlockKStep in [kGemmBlockKStep, kGemmMaxBlockK]; 0: derive
                                // (at most kGemmMaxBufferedBlockK where the kernel decodes the block)
  int64_t prefetch_blocks = 0;  // whole blocks ahead the tiles ask for (>= 1)
  bool operator==(const GemmBlocking& o) const { return k_block == o.k_block && prefetch_blocks == o.prefetch_blocks; }
};

// How many blocks ahead the tiles ask for. Measured on Zen 5 with 256-row blocks: one block ahead
// looked ~10% better on single cold GEMMs but made the whole N1.5 bf16 denoise slower side by side
// (658 -> 571 ms back at two), and cached one-thread GEMMs too (3072 x 3072: 300 -> 324 GFLOP/s at
// two). The whole engine is the judge of a prefetch policy, not one GEMM.
inline constexpr int64_t kGemmPrefetchBlocks = 2;
// L2-sized blocks: one block ahead (two measured the same or slower on Zen 5, and hold twice the
// lines).
inline constexpr int64_t kGemmPrefetchPanels = 1;

// Bytes per K row of a 32-column weight block: as the tiles stream it from memory (the packed
// format), and as they re-read it (the same bytes, or the buffer it is decoded or widened into).
struct BlockRowBytes {
  int64_t streamed, read;
};
BlockRowBytes block_row_bytes(Isa isa, WeightFormat format);
// Whether the kernel of `isa` reads `format` blocks where they lie (no decode or widening buffer).
bool gemm_reads_in_place(Isa isa, WeightFormat format);
// Bytes of one bf16 value (of x or of a decoded weight) as the kernel of `isa` multiplies it: 2
// where it multiplies bf16 pairs (AVX512-BF16), 4 where it widens to fp32 (AVX-512F, AVX2, portable).
int64_t bf16_operand_bytes(Isa isa);

// The pure derivation (see the top of this file) for a call of `rows` rows of x.
GemmBlocking derive_gemm_blocking(const CacheSizes& caches, Isa isa, WeightFormat format, int64_t k_padded, int64_t rows);
// Panels per column block for callers that run rows_total rows as calls of up to kGemmMaxRows rows
// (x prepared by `isa`: bf16 pairs, floats or int8 blocks); all of them when one call takes every row.
int64_t derive_column_block_panels(const CacheSizes& caches, Isa isa, const PackedWeights& w, int64_t rows_total);

// The overrides of DITMK_GEMM_BLOCKING (0 where a field is not given); throws ditmk::Error naming the
// variable and the field when malformed.
struct GemmBlockingOverride {
  int64_t k_block = 0, prefetch_blocks = 0, column_block_panels = 0;
};
GemmBlockingOverride parse_gemm_blocking_override(std::string_view text);
const GemmBlockingOverride& gemm_blocking_override();  // read once

// What gemm() runs with: derive_gemm_blocking on cache_sizes(), then DITMK_GEMM_BLOCKING.
GemmBlocking gemm_blocking(const PackedWeights& w, Isa isa, int64_t rows);
int64_t gemm_column_block_panels(const PackedWeights& w, Isa isa, int64_t rows_total);
// One line for reports: "k_block 128, 2 blocks prefetched ahead".
std::string describe(const GemmBlocking& b);

}  // namespace ditmk::cpu
