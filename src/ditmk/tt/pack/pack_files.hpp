#pragma once
// The files of a pack directory (`ditmk pack --out DIR`). docs/plan.md, "Packing", describes each.
//
// An arena file holds the 8 DRAM banks one after another, each `bank_bytes` long (the arena's
// per-bank size from ArenaLayout): byte `o` of bank `b` is at file offset b * bank_bytes + o. This is
// the logical image of a buffer sharded over the banks with one shard per bank, so a loader can copy
// the file into DRAM as is.
#include <cstdint>

#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt::pack_files {

inline constexpr const char* kManifest = "manifest.json";
inline constexpr const char* kArenaStream = "arena_stream.bin";
inline constexpr const char* kArenaSmall = "arena_small.bin";
inline constexpr const char* kOffsetsTable = "offsets_table.bin";  // uint32 little-endian, one per op
inline constexpr const char* kAdalnRows = "adaln_rows.bin";        // bf16 row-major tables from here on
inline constexpr const char* kBiasRows = "bias_rows.bin";
inline constexpr const char* kB2Step = "b2_step.bin";
inline constexpr const char* kB3PosRows = "b3_pos_rows.bin";
inline constexpr const char* kFutureTokens = "future_tokens.bin";  // N1.5 only

inline const char* arena_file(Arena arena) { return arena == Arena::stream ? kArenaStream : kArenaSmall; }

inline uint64_t file_offset(uint64_t bank_bytes, int bank, uint64_t offset_in_bank) {
  return uint64_t(bank) * bank_bytes + offset_in_bank;
}

}  // namespace ditmk::tt::pack_files
