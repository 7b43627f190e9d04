#pragma once
// TensorAccessor(args, bank_base_address[, page_size]): the NoC address of a tensor's pages from its
// TensorAccessorArgs (api/tensor/tensor_accessor_args.h). The page size defaults to the args' aligned
// page size; a page's bank offset steps by it.
//
// Interleaved: page p lies in bank p % the bank count (NUM_DRAM_BANKS, or NUM_L1_BANKS L1 banks, one
// per worker core) at base + (p / the bank count) * page size, as InterleavedAddrGen lays pages out.
// Sharded: the page's coordinates in the tensor (shape in pages, last dimension fastest) pick a shard
// and a page inside it; shards go round the banks (or fill one bank before the next when the args say
// shard-contiguous), each bank holding its shards one after another, each shard's pages row-major.
// An L1 bank is the worker core at the bank's coordinates; a DRAM bank's x is the bank's number.
#include <stddef.h>
#include <stdint.h>

#include <array>
#include <tuple>

#include "api/tensor/shard_pages_address_iterator.h"
#include "api/tensor/tensor_accessor_args.h"
#include "api/tensor/tensor_binding_token.h"
#include "ditmk/abi.h"
#include "ditmk/addrgen.h"
#include "ditmk/attributes.h"
#include "ditmk/noc.h"

namespace ditmk::detail {
// The largest rank a sharded accessor takes apart (tt-metal's hosts use up to 8).
inline constexpr uint32_t kMaxAccessorRank = 8;
}  // namespace ditmk::detail

template <typename DSpecT>
struct TensorAccessor {
  // the accessor's distribution: its args object here (ttnn's kernels test DSpec::is_interleaved)
  using DSpec = DSpecT;
  static constexpr bool is_dram = DSpec::is_dram;

  TensorAccessor(const DSpec& args, const size_t bank_base_address_in, const uint32_t page_size_in)
      : bank_base_address(uint32_t(bank_base_address_in)), aligned_page_size(page_size_in), args_(args) {}
  TensorAccessor(const DSpec& args, const size_t bank_base_address_in)
      : TensorAccessor(args, bank_base_address_in, args.get_aligned_page_size()) {}
  // From a Metal 2.0 binding token (tensor::<name>): the accessor words at the token's compile-time
  // offset, the base address in the common runtime arg at its byte offset (runtime accessor fields,
  // when a binding has any, would follow that word: DSpec's common-arg offset is the next word).
  template <uint32_t CTA_OFFSET, uint32_t ADDR_CRTA_OFFSET>
  TensorAccessor(tensor_accessor::TensorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET>)
      : TensorAccessor(DSpec{}, size_t(get_common_arg_val<uint32_t>(ADDR_CRTA_OFFSET / sizeof(uint32_t)))) {
    static_assert(ADDR_CRTA_OFFSET % sizeof(uint32_t) == 0, "TensorBindingToken: ADDR_CRTA_OFFSET must be 4-byte aligned");
  }

  constexpr const auto& dspec() const { return args_; }
  constexpr auto& dspec() { return args_; }
  FORCE_INLINE uint32_t get_aligned_page_size() const { return aligned_page_size; }
  FORCE_INLINE constexpr uint32_t get_bank_base_address() const { return bank_base_address; }

  // Where page `page_id` of the tensor lies: its bank and its page index within that bank.
  struct PageMapping {
    size_t bank_id;
    size_t bank_page_offset;
  };

  FORCE_INLINE uint64_t get_noc_addr(const uint32_t page_id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
    (void)noc;
    if constexpr (!DSpec::is_sharded) {
      return ditmk::detail::interleaved_page_addr<is_dram>(page_id, aligned_page_size, bank_base_address, offset);
    } else {
      return bank_noc_addr(get_bank_and_offset(page_id), offset);
    }
  }

  // The start of shard `shard_id` (shards numbered row-major over the tensor's grid of shards).
  uint64_t get_shard_noc_addr(const uint32_t shard_id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
    (void)noc;
    static_assert(DSpec::is_sharded, "TensorAccessor::get_shard_noc_addr: the tensor is interleaved");
    const BankShard at = shard_to_bank(shard_id);
    return bank_noc_addr({at.bank_id, at.shard_in_bank * shard_volume()}, offset);
  }

  // The pages of shard `shard_id` (pages start_page_offset up to end_page_offset of the shard, all of
  // it by default), those inside the tensor, each with its NoC address and page id.
  tensor_accessor::ShardPages<TensorAccessor> shard_pages(uint32_t shard_id, uint32_t start_page_offset = 0,
                                                          uint32_t end_page_offset = 0,
                                                          uint8_t noc = noc_index) const {
    static_assert(DSpec::is_sharded, "TensorAccessor::shard_pages: the tensor is interleaved");
    const uint32_t end = end_page_offset == 0 ? uint32_t(shard_volume()) : end_page_offset;
    return tensor_accessor::ShardPages<TensorAccessor>(*this, shard_id, start_page_offset, end, noc);
  }

  PageMapping get_bank_and_offset(uint32_t page_id) const {
    if constexpr (!DSpec::is_sharded) {
      const uint32_t banks = is_dram ? NUM_DRAM_BANKS : NUM_L1_BANKS;
      return {page_id % banks, page_id / banks};
    } else {
      const uint32_t rank = checked_rank();
      size_t shard = 0, page_in_shard = 0, grid_stride = 1, shard_stride = 1;
      for (uint32_t d = rank; d-- > 0;) {
        const uint32_t extent = args_.tensor_shape_at(d);
        const uint32_t shard_extent = args_.shard_shape_at(d);
        const uint32_t coord = page_id % extent;
        page_id /= extent;
        shard += (coord / shard_extent) * grid_stride;
        page_in_shard += (coord % shard_extent) * shard_stride;
        grid_stride *= (extent + shard_extent - 1) / shard_extent;
        shard_stride *= shard_extent;
      }
      const BankShard at = shard_to_bank(shard);
      return {at.bank_id, at.shard_in_bank * shard_stride + page_in_shard};
    }
  }

  bool is_local_bank(uint32_t virtual_x, uint32_t virtual_y, uint8_t noc = noc_index) const {
    return virtual_x == my_x[noc] && virtual_y == my_y[noc];
  }
  bool is_local_addr(const uint64_t noc_addr, uint8_t noc = noc_index) const {
    return ditmk::detail::noc_addr_is_local(noc_addr, noc);
  }
  bool is_local_page(const uint32_t page_id, uint8_t noc = noc_index) const {
    return is_local_addr(get_noc_addr(page_id, 0, noc), noc);
  }
  bool is_local_shard(const uint32_t shard_id, uint8_t noc = noc_index) const {
    return is_local_addr(get_shard_noc_addr(shard_id, 0, noc), noc);
  }

  const uint32_t bank_base_address = 0;
  const uint32_t aligned_page_size = 0;

 private:
  template <typename>
  friend class tensor_accessor::ShardPagesAddressIterator;

  DSpec args_;

  // Whether page `page_in_shard` of shard `shard_id` lies inside the tensor (a partial shard's last
  // pages do not); if it does, its page id in the tensor goes to `page_id`.
  bool shard_page_id(uint32_t shard_id, uint32_t page_in_shard, uint32_t& page_id) const {
    static_assert(DSpec::is_sharded, "TensorAccessor::shard_page_id: the tensor is interleaved");
    uint32_t global = 0, stride = 1;
    for (uint32_t d = checked_rank(); d-- > 0;) {
      const uint32_t extent = args_.tensor_shape_at(d), shard_extent = args_.shard_shape_at(d);
      const uint32_t grid = (extent + shard_extent - 1) / shard_extent;
      const uint32_t coord = (shard_id % grid) * shard_extent + page_in_shard % shard_extent;
      shard_id /= grid;
      page_in_shard /= shard_extent;
      if (coord >= extent) return false;
      global += coord * stride;
      stride *= extent;
    }
    page_id = global;
    return true;
  }

  struct BankShard {
    size_t bank_id;
    size_t shard_in_bank;
  };

  uint32_t checked_rank() const {
    const uint32_t rank = args_.get_rank();
    if (rank == 0 || rank > ditmk::detail::kMaxAccessorRank) {
      ditmk::detail::fault(DITMK_FAULT_BAD_CALL, ditmk::detail::Message()
                                                     << "TensorAccessor: a sharded tensor of rank " << rank
                                                     << " (1 to " << ditmk::detail::kMaxAccessorRank << " modelled)");
    }
    return rank;
  }

  size_t shard_volume() const {
    size_t volume = 1;
    for (uint32_t d = 0, rank = checked_rank(); d < rank; ++d) volume *= args_.shard_shape_at(d);
    return volume;
  }

  size_t num_shards() const {
    size_t shards = 1;
    for (uint32_t d = 0, rank = checked_rank(); d < rank; ++d) {
      shards *= (args_.tensor_shape_at(d) + args_.shard_shape_at(d) - 1) / args_.shard_shape_at(d);
    }
    return shards;
  }

  BankShard shard_to_bank(size_t shard) const {
    const size_t banks = args_.get_num_banks();
    if (args_.resolve_shard_contiguous()) {
      const size_t per_bank = num_shards() / banks;  // the host gives each bank as many shards
      if (per_bank == 0) {
        ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "TensorAccessor: a shard-contiguous tensor with fewer shards "
                                                   "than banks");
      }
      return {shard / per_bank, shard % per_bank};
    }
    return {shard % banks, shard / banks};
  }

  uint64_t bank_noc_addr(PageMapping at, uint32_t offset) const {
    const uint32_t banks = args_.get_num_banks();
    if (at.bank_id >= banks) {
      ditmk::detail::fault(DITMK_FAULT_OUT_OF_BOUNDS, ditmk::detail::Message()
                                                          << "TensorAccessor: bank " << uint32_t(at.bank_id)
                                                          << " of a sharded tensor with " << banks << " banks");
    }
    const uint16_t xy = args_.packed_bank_coord(uint32_t(at.bank_id));
    const uint32_t address = bank_base_address + uint32_t(at.bank_page_offset) * aligned_page_size + offset;
    if constexpr (is_dram) return ditmk::abi->dram_noc_addr(xy >> 8, address);
    return ditmk::abi->noc_addr(xy >> 8, xy & 0xFF, address);
  }
};

template <uint32_t CTA_OFFSET, uint32_t ADDR_CRTA_OFFSET>
TensorAccessor(tensor_accessor::TensorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET>)
    -> TensorAccessor<TensorAccessorArgs<CTA_OFFSET, ADDR_CRTA_OFFSET / sizeof(uint32_t) + 1>>;
template <size_t CTA_OFFSET, size_t CRTA_OFFSET>
TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>&, size_t)
    -> TensorAccessor<TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>>;
template <size_t CTA_OFFSET, size_t CRTA_OFFSET>
TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>&, size_t, uint32_t)
    -> TensorAccessor<TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>>;

// One accessor per args block, the base addresses taken from consecutive runtime args.
template <typename... Args>
auto make_tensor_accessor_tuple(const std::tuple<Args...>& args, uint32_t address_rt_arg_index_start) {
  return std::apply(
      [&](const auto&... each) {
        uint32_t index = address_rt_arg_index_start;
        return std::tuple{TensorAccessor(each, get_arg_val<uint32_t>(index++))...};
      },
      args);
}

// One type over accessors of different args, so a kernel can index them at run time
// (`accessors[i]`, e.g. one per input tensor): it keeps a pointer to the accessor and a function that
// asks that accessor's type for a page's address. The accessors must outlive the wrappers.
class AbstractTensorAccessorWrapper {
 public:
  AbstractTensorAccessorWrapper() = default;

  template <typename Accessor>
  AbstractTensorAccessorWrapper(const Accessor& accessor)
      : accessor_ptr(&accessor),
        get_noc_addr_fn([](const void* erased, uint32_t page_id, uint32_t offset, uint8_t noc) {
          return static_cast<const Accessor*>(erased)->get_noc_addr(page_id, offset, noc);
        }) {}

  uint64_t get_noc_addr(uint32_t page_id, uint32_t offset = 0, uint8_t noc = noc_index) const {
    if (get_noc_addr_fn == nullptr) {
      ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "AbstractTensorAccessorWrapper: default-constructed, it wraps no "
                                                 "accessor");
    }
    return get_noc_addr_fn(accessor_ptr, page_id, offset, noc);
  }

 private:
  using GetNocAddrFn = uint64_t (*)(const void*, uint32_t, uint32_t, uint8_t);
  const void* accessor_ptr = nullptr;
  GetNocAddrFn get_noc_addr_fn = nullptr;
};

// One wrapper per accessor of the tuple, in order (the tuple must outlive the array).
template <typename... Accessors>
auto make_abstract_tensor_accessor_wrappers(const std::tuple<Accessors...>& accessors) {
  return std::apply(
      [](const auto&... each) {
        return std::array<AbstractTensorAccessorWrapper, sizeof...(Accessors)>{AbstractTensorAccessorWrapper(each)...};
      },
      accessors);
}

// One accessor per token of a Metal 2.0 tensor binding sequence (tensor::<sequence>, a tuple of
// binding tokens), in the sequence's order.
template <typename... Tokens>
auto make_tensor_accessors(const std::tuple<Tokens...>& tokens) {
  return std::apply([](const auto&... each) { return std::make_tuple(TensorAccessor(each)...); }, tokens);
}

// Views that make a TensorAccessor's pages or shards a NoC endpoint (api/tensor/noc_traits.h).
template <typename Accessor>
struct PageView {
  const Accessor& accessor;
  explicit PageView(const Accessor& acc) : accessor(acc) {}
  uint64_t get_noc_addr(uint32_t page_id, uint32_t offset, uint8_t noc) const {
    return accessor.get_noc_addr(page_id, offset, noc);
  }
};

template <typename Accessor>
struct ShardView {
  const Accessor& accessor;
  explicit ShardView(const Accessor& acc) : accessor(acc) {}
  bool is_local_shard(uint32_t shard_id, uint8_t noc) const { return accessor.is_local_shard(shard_id, noc); }
  uint64_t get_noc_addr(uint32_t shard_id, uint32_t offset, uint8_t noc) const {
    return accessor.get_shard_noc_addr(shard_id, offset, noc);
  }
};
