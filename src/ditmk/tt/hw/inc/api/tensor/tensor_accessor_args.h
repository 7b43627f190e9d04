#pragma once
// TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>: a tensor's description as tt-metal's host appends it to
// a kernel's compile-time args (the descriptor's {"tensor_accessor_args": "name"} does the same):
//
//   word 0                 tensor_accessor::ArgsConfig (Sharded, IsDram, Runtime* bits)
//   word 1                 the aligned page size (absent with RuntimePageSize)
//   sharded tensors only, each absent when its Runtime* bit is set:
//     rank                 R
//     num_banks            the bank count, top bit: shards fill one bank before the next
//     tensor_shape[R]      in pages
//     shard_shape[R]       in pages
//     bank_coords[(B+1)/2] two 16-bit (x << 8 | y) NoC coordinates a word, the even bank in the low half
//
// The parts marked runtime come, in the same order, from the kernel's common runtime args starting at
// CRTA_OFFSET (or the offset given to the constructor when CRTA_OFFSET is tensor_accessor::UNKNOWN).
#include <stddef.h>
#include <stdint.h>

#include <tuple>
#include <utility>

#include "api/compile_time_args.h"
#include "ditmk/kernel_args.h"
#include "hostdevcommon/tensor_accessor/arg_config.hpp"

namespace tensor_accessor {
inline constexpr size_t UNKNOWN = static_cast<size_t>(-1);
}  // namespace tensor_accessor

namespace ditmk::detail {
// A compile-time arg of a TensorAccessorArgs block, checked to lie inside the kernel's args.
template <size_t Index>
constexpr uint32_t accessor_ct_arg() {
  static_assert(Index < kernel_compile_time_args.size(),
                "TensorAccessorArgs: the block runs past the kernel's compile_time_args (does the host give this "
                "tensor's TensorAccessorArgs at this offset?)");
  return kernel_compile_time_args[Index];
}
}  // namespace ditmk::detail

template <size_t CTA_OFFSET, size_t CRTA_OFFSET = tensor_accessor::UNKNOWN>
struct TensorAccessorArgs {
  static constexpr tensor_accessor::ArgsConfig args_config{
      static_cast<tensor_accessor::ArgsConfig::Underlying>(ditmk::detail::accessor_ct_arg<CTA_OFFSET>())};
  static constexpr bool is_sharded = args_config.test(tensor_accessor::ArgConfig::Sharded);
  static constexpr bool is_interleaved = !is_sharded;  // as 0.81.1's DistributionSpec, which dspec() stands in for
  static constexpr bool is_dram = args_config.test(tensor_accessor::ArgConfig::IsDram);
  static constexpr bool rank_is_crta = args_config.test(tensor_accessor::ArgConfig::RuntimeRank);
  static constexpr bool num_banks_is_crta = args_config.test(tensor_accessor::ArgConfig::RuntimeNumBanks);
  static constexpr bool tensor_shape_is_crta = args_config.test(tensor_accessor::ArgConfig::RuntimeTensorShape);
  static constexpr bool shard_shape_is_crta = args_config.test(tensor_accessor::ArgConfig::RuntimeShardShape);
  static constexpr bool bank_coords_is_crta = args_config.test(tensor_accessor::ArgConfig::RuntimeBankCoords);
  static constexpr bool page_size_is_crta = args_config.test(tensor_accessor::ArgConfig::RuntimePageSize);
  static_assert(!is_sharded || !rank_is_crta || (tensor_shape_is_crta && shard_shape_is_crta),
                "TensorAccessorArgs: a runtime rank needs runtime tensor and shard shapes");
  static_assert(!is_sharded || !num_banks_is_crta || bank_coords_is_crta,
                "TensorAccessorArgs: a runtime bank count needs runtime bank coordinates");
  static_assert(!is_sharded || !page_size_is_crta, "TensorAccessorArgs: a runtime page size is for interleaved tensors");

  static constexpr uint32_t AlignedPageSizeCTAOffset = CTA_OFFSET + 1;
  static constexpr uint32_t AlignedPageSize = [] {
    if constexpr (page_size_is_crta) return 0u;
    else return ditmk::detail::accessor_ct_arg<AlignedPageSizeCTAOffset>();
  }();

  // Offsets of the sharded parts among the compile-time args.
  static constexpr uint32_t RankCTAOffset = CTA_OFFSET + (page_size_is_crta ? 1 : 2);
  static constexpr uint32_t NumBanksCTAOffset = RankCTAOffset + (rank_is_crta ? 0 : 1);
  static constexpr uint32_t RankCT = [] {
    if constexpr (!is_sharded || rank_is_crta) return 0u;
    else return ditmk::detail::accessor_ct_arg<RankCTAOffset>();
  }();
  static constexpr uint32_t NumBanksRawCT = [] {
    if constexpr (!is_sharded || num_banks_is_crta) return 0u;
    else return ditmk::detail::accessor_ct_arg<NumBanksCTAOffset>();
  }();
  static constexpr uint32_t NumBanksCT = tensor_accessor::unpack_num_banks(NumBanksRawCT);
  static constexpr bool is_shard_contiguous = tensor_accessor::unpack_is_shard_contiguous(NumBanksRawCT);
  static constexpr uint32_t PhysicalNumBanksCT = (NumBanksCT + 1) / 2;
  static_assert(!is_sharded || rank_is_crta || RankCT > 0, "TensorAccessorArgs: a sharded tensor's rank is 0");
  static_assert(!is_sharded || num_banks_is_crta || NumBanksCT > 0, "TensorAccessorArgs: a sharded tensor has no banks");
  static constexpr uint32_t TensorShapeCTAOffset = NumBanksCTAOffset + (num_banks_is_crta ? 0 : 1);
  static constexpr uint32_t ShardShapeCTAOffset = TensorShapeCTAOffset + (tensor_shape_is_crta ? 0 : RankCT);
  static constexpr uint32_t BankCoordsCTAOffset = ShardShapeCTAOffset + (shard_shape_is_crta ? 0 : RankCT);
  static constexpr uint32_t NumArgsCT = [] {
    if constexpr (is_sharded) return uint32_t(BankCoordsCTAOffset + (bank_coords_is_crta ? 0 : PhysicalNumBanksCT) - CTA_OFFSET);
    else return page_size_is_crta ? 1u : 2u;
  }();
  static_assert(!is_sharded || bank_coords_is_crta || CTA_OFFSET + NumArgsCT <= kernel_compile_time_args.size(),
                "TensorAccessorArgs: the sharded block runs past the kernel's compile_time_args");

  constexpr TensorAccessorArgs() : crta_offset_rt_(0) {}
  constexpr explicit TensorAccessorArgs(uint32_t crta_offset) : crta_offset_rt_(crta_offset) {
    static_assert(CRTA_OFFSET == tensor_accessor::UNKNOWN,
                  "TensorAccessorArgs(crta_offset): the common runtime arg offset is already a template argument");
  }

  constexpr uint32_t crta_offset() const {
    if constexpr (CRTA_OFFSET != tensor_accessor::UNKNOWN) return uint32_t(CRTA_OFFSET);
    else return crta_offset_rt_;
  }

  constexpr uint32_t get_aligned_page_size() const {
    if constexpr (!page_size_is_crta) return AlignedPageSize;
    else return get_common_arg_val<uint32_t>(crta_offset());
  }

  constexpr uint32_t rank_crta_offset() const { return crta_offset(); }
  constexpr uint32_t num_banks_crta_offset() const { return crta_offset() + (rank_is_crta ? 1 : 0); }
  constexpr uint32_t tensor_shape_crta_offset() const { return num_banks_crta_offset() + (num_banks_is_crta ? 1 : 0); }
  constexpr uint32_t shard_shape_crta_offset() const {
    return tensor_shape_crta_offset() + (tensor_shape_is_crta ? get_rank() : 0);
  }
  constexpr uint32_t bank_coords_crta_offset() const {
    return shard_shape_crta_offset() + (shard_shape_is_crta ? get_rank() : 0);
  }

  constexpr uint32_t get_rank() const {
    if constexpr (!rank_is_crta) return RankCT;
    else return get_common_arg_val<uint32_t>(rank_crta_offset());
  }
  constexpr uint32_t get_num_banks() const {
    if constexpr (!num_banks_is_crta) return NumBanksCT;
    else return tensor_accessor::unpack_num_banks(get_common_arg_val<uint32_t>(num_banks_crta_offset()));
  }
  constexpr bool resolve_shard_contiguous() const {
    if constexpr (!num_banks_is_crta) return is_shard_contiguous;
    else return tensor_accessor::unpack_is_shard_contiguous(get_common_arg_val<uint32_t>(num_banks_crta_offset()));
  }
  constexpr uint32_t get_physical_num_banks() const { return (get_num_banks() + 1) / 2; }

  static constexpr uint32_t num_compile_time_args() { return NumArgsCT; }
  static constexpr uint32_t next_compile_time_args_offset() { return uint32_t(CTA_OFFSET) + num_compile_time_args(); }
  constexpr uint32_t num_common_runtime_args() const {
    if constexpr (!is_sharded) {
      return page_size_is_crta ? 1 : 0;
    } else {
      return bank_coords_crta_offset() + (bank_coords_is_crta ? get_physical_num_banks() : 0) - crta_offset();
    }
  }
  constexpr uint32_t next_common_runtime_args_offset() const { return crta_offset() + num_common_runtime_args(); }

 private:
  template <typename>
  friend struct TensorAccessor;

  // Dimension `i` of the tensor and of a shard, in pages, and bank `bank`'s packed (x << 8 | y).
  uint32_t tensor_shape_at(uint32_t i) const {
    if constexpr (tensor_shape_is_crta) return get_common_arg_val<uint32_t>(tensor_shape_crta_offset() + i);
    else return kernel_compile_time_args[TensorShapeCTAOffset + i];
  }
  uint32_t shard_shape_at(uint32_t i) const {
    if constexpr (shard_shape_is_crta) return get_common_arg_val<uint32_t>(shard_shape_crta_offset() + i);
    else return kernel_compile_time_args[ShardShapeCTAOffset + i];
  }
  uint16_t packed_bank_coord(uint32_t bank) const {
    const uint32_t word = bank_coords_is_crta ? get_common_arg_val<uint32_t>(bank_coords_crta_offset() + bank / 2)
                                              : kernel_compile_time_args[BankCoordsCTAOffset + bank / 2];
    return uint16_t(bank % 2 ? word >> 16 : word & 0xFFFF);
  }

  uint32_t crta_offset_rt_;
};

namespace tensor_accessor::detail {
template <uint32_t INDEX, uint32_t CTA_OFFSET>
constexpr uint32_t tensor_accessor_args_offset() {
  if constexpr (INDEX == 0) return CTA_OFFSET;
  else return TensorAccessorArgs<tensor_accessor_args_offset<INDEX - 1, CTA_OFFSET>()>::next_compile_time_args_offset();
}

template <uint32_t CTA_OFFSET, uint32_t... INDEXES>
constexpr auto tensor_accessor_args_tuple(std::integer_sequence<uint32_t, INDEXES...>) {
  return std::make_tuple(TensorAccessorArgs<tensor_accessor_args_offset<INDEXES, CTA_OFFSET>()>()...);
}
}  // namespace tensor_accessor::detail

// NUM_TENSORS blocks one after another from CTA_OFFSET.
template <uint32_t NUM_TENSORS, uint32_t CTA_OFFSET>
constexpr auto make_tensor_accessor_args_tuple() {
  return tensor_accessor::detail::tensor_accessor_args_tuple<CTA_OFFSET>(
      std::make_integer_sequence<uint32_t, NUM_TENSORS>());
}
