#pragma once
// TensorAccessor(args, bank_base_address, page_size): pages of an interleaved tensor, in DRAM or in
// L1 (TensorAccessorArgs say which), laid out as InterleavedAddrGen lays them (page p in bank
// p % the bank count at base + (p / the bank count) * page_size), with the page size taken as given,
// as tt-metal does (the host passes it aligned). Shard addressing of L1-sharded tensors is not
// modelled: a kernel reaches its shard at the tensor's address (get_noc_addr(x, y, address)) or
// through the CB the shard backs.
#include <stddef.h>
#include <stdint.h>

#include "api/tensor/tensor_accessor_args.h"
#include "ditmk/abi.h"
#include "ditmk/addrgen.h"
#include "ditmk/attributes.h"

template <typename DSpec>
struct TensorAccessor {
  static constexpr bool is_dram = DSpec::is_dram;

  template <uint32_t CTA_OFFSET, uint32_t CRTA_OFFSET>
  TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>&, const size_t bank_base_address_in,
                 const uint32_t page_size_in = TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>::AlignedPageSize)
      : bank_base_address(uint32_t(bank_base_address_in)), aligned_page_size(page_size_in) {}

  FORCE_INLINE uint32_t get_aligned_page_size() const { return aligned_page_size; }
  FORCE_INLINE constexpr uint32_t get_bank_base_address() const { return bank_base_address; }

  FORCE_INLINE uint64_t get_noc_addr(const uint32_t page_id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
    (void)noc;
    if constexpr (DSpec::is_sharded) {
      ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                           "TensorAccessor::get_noc_addr on a sharded tensor: shard addressing is not modelled; "
                           "read the shard at the tensor's address on its core, or through the CB it backs");
    }
    if (aligned_page_size == 0) {
      ditmk::detail::fault(DITMK_FAULT_BAD_CALL,
                           "TensorAccessor without a page size: ditmk's TensorAccessorArgs carry none for this "
                           "tensor; pass it as TensorAccessor(args, address, page_size)");
    }
    return ditmk::detail::interleaved_page_addr<DSpec::is_dram>(page_id, aligned_page_size, bank_base_address,
                                                                 offset);
  }

  const uint32_t bank_base_address = 0;
  const uint32_t aligned_page_size = 0;
};

template <uint32_t CTA_OFFSET, uint32_t CRTA_OFFSET>
TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>&, size_t)
    -> TensorAccessor<TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>>;
template <uint32_t CTA_OFFSET, uint32_t CRTA_OFFSET>
TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>&, size_t, uint32_t)
    -> TensorAccessor<TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>>;
