#pragma once
// Hardware limits and protocol constants of the megakernel plan (Blackhole p150, docs/plan.md).
#include <cstdint>

namespace ditmk::tt {

// A K-block is the unit of the weight ring: 8 K tiles x 2 N tiles. Two N tiles per compute core is
// what makes 96 cores cover the 192 N tiles of the fused QKV and FF1 in one pass; 8 K tiles keep a
// DRAM transaction long enough (17-32 KB) to run near the bank's streaming rate.
constexpr int kKBlockTiles = 8;
constexpr int kNTilesPerCore = 2;
constexpr int kSteps = 4;  // Euler steps of the denoise

// tt-metal rejects more than 341 runtime-arg words per kernel per core, the core's own words and
// the common words counted together.
constexpr uint32_t kMaxRtArgsPerCore = 341;
constexpr uint32_t kPerCoreRtArgs = 5;  // compute_idx, bank_id, vc, head_idx, group
constexpr uint32_t kMaxCommonRtArgs = kMaxRtArgsPerCore - kPerCoreRtArgs;  // 336

constexpr int kMaxCbs = 64;
constexpr int kNumCbIds = 32;  // CB ids 0..31: the size of the kernel's CB table
constexpr int kMaxKernelGroups = 4;
constexpr int kMaxSemaphores = 16;
constexpr uint32_t kNotApplicable = 0xFFFF;

// L1: 1536 KiB per core, of which 1427 KiB are left for CBs once firmware and the 69 KiB
// kernel-config ring are placed at the bottom; CBs are allocated upwards from that point.
constexpr uint32_t kL1Bytes = 1536 * 1024;
constexpr uint32_t kL1UsableBytes = 1427 * 1024;            // 1,461,248
constexpr uint32_t kL1CbBase = kL1Bytes - kL1UsableBytes;   // 111,616
constexpr uint32_t kL1CbAlign = 32;                          // NoC transfer alignment

constexpr uint32_t kK1ComputeBudget = 1'000'000;
// K4: the kernel-config ring grows to 96 KiB and the allocator keeps headroom for sharded buffers.
constexpr uint32_t kK4ComputeBudget = 1'340'000;
constexpr uint32_t kK4L1Margin = 96 * 1024 + 24'000;

}  // namespace ditmk::tt
