#pragma once
// The first compile-time word of a TensorAccessorArgs block: which parts of the tensor's description
// the block holds and which the kernel finds in its common runtime args instead (the Runtime* bits).
// The bit values are tt-metal's, so kernels and host agree on them.
#include <stdint.h>

#include "hostdevcommon/flags.hpp"

namespace tensor_accessor {

enum class ArgConfig : uint8_t {
  None = 0,
  Sharded = 1 << 0,
  IsDram = 1 << 1,
  RuntimeRank = 1 << 2,
  RuntimeNumBanks = 1 << 3,
  RuntimeTensorShape = 1 << 4,
  RuntimeShardShape = 1 << 5,
  RuntimeBankCoords = 1 << 6,
  RuntimePageSize = 1 << 7,
  Runtime = RuntimeRank | RuntimeNumBanks | RuntimeTensorShape | RuntimeShardShape | RuntimeBankCoords | RuntimePageSize
};

using ArgsConfig = Flags<ArgConfig>;
constexpr ArgsConfig operator|(ArgConfig a, ArgConfig b) noexcept { return ArgsConfig(a) | b; }
constexpr ArgsConfig operator|(ArgConfig a, ArgsConfig b) noexcept { return ArgsConfig(a) | b; }

// The bank count word carries, in its top bit, whether shards fill one bank before the next
// (shard-contiguous) rather than going round the banks.
inline constexpr uint32_t ShardContiguousBit = 1u << 31;
constexpr uint32_t pack_num_banks(uint32_t num_banks, bool is_shard_contiguous) {
  return num_banks | (is_shard_contiguous ? ShardContiguousBit : 0u);
}
constexpr uint32_t unpack_num_banks(uint32_t packed) { return packed & ~ShardContiguousBit; }
constexpr bool unpack_is_shard_contiguous(uint32_t packed) { return (packed & ShardContiguousBit) != 0; }

}  // namespace tensor_accessor
