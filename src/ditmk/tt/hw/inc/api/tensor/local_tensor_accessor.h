#pragma once
// LocalTensorAccessor<T>: an L1 tensor's region on the running core (its shard, or its bank of an
// interleaved L1 tensor) as T elements from the bank's base address: from a tensor:: binding token
// (the address is the binding's common runtime arg; a DRAM binding does not compile), from a null
// token (address 0) or from an address. Not bounds-checked, as in tt-metal. In a data-movement
// kernel it is a local L1 NoC endpoint ({.offset_bytes = n} bytes past its base).
#include <stdint.h>

#include <array>
#include <tuple>

#include "api/core_local_mem.h"
#include "api/debug/assert.h"
#include "api/tensor/tensor_accessor_args.h"
#include "api/tensor/tensor_binding_token.h"

template <typename T>
class LocalTensorAccessor {
 public:
  template <uint32_t CTA_OFFSET, uint32_t ADDR_CRTA_OFFSET>
  [[nodiscard]] explicit LocalTensorAccessor(tensor_accessor::TensorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET>) noexcept
      : LocalTensorAccessor(get_common_arg_val<uint32_t>(ADDR_CRTA_OFFSET / sizeof(uint32_t))) {
    static_assert(!tensor_accessor::TensorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET>::args_t::is_dram,
                  "LocalTensorAccessor needs an L1 tensor; a DRAM tensor has no region on this core");
  }
  [[nodiscard]] explicit LocalTensorAccessor(const tensor_accessor::NullTensorBindingToken&) noexcept
      : LocalTensorAccessor(uint32_t{0}) {}
  [[nodiscard]] explicit LocalTensorAccessor(uint32_t bank_base_address) noexcept
      : mem_(uintptr_t(bank_base_address)) {
    ASSERT(mem_.get_address() % alignof(T) == 0);
  }

  [[nodiscard]] T& operator[](uint32_t index) const { return mem_[index]; }
  [[nodiscard]] uint32_t get_bank_base_address() const noexcept { return uint32_t(mem_.get_address()); }
  [[nodiscard]] auto scoped_lock(uint32_t offset, uint32_t num_elements) const {
    return (mem_ + offset).scoped_lock(num_elements);
  }
  [[nodiscard]] CoreLocalMem<T> local_mem() const noexcept { return mem_; }

 private:
  CoreLocalMem<T> mem_;
};

#if !defined(COMPILE_FOR_TRISC)
template <typename T>
struct noc_traits_t<LocalTensorAccessor<T>> {
  struct src_args_type {
    uint32_t offset_bytes = 0;
  };
  struct dst_args_type {
    uint32_t offset_bytes = 0;
  };

  template <Noc::AddressType address_type>
  static uint32_t src_addr(const LocalTensorAccessor<T>& src, const Noc&, const src_args_type& args) {
    static_assert(address_type == Noc::AddressType::LOCAL_L1, "a LocalTensorAccessor is a local L1 source");
    return src.get_bank_base_address() + args.offset_bytes;
  }
  template <Noc::AddressType address_type>
  static uint32_t dst_addr(const LocalTensorAccessor<T>& dst, const Noc&, const dst_args_type& args) {
    static_assert(address_type == Noc::AddressType::LOCAL_L1, "a LocalTensorAccessor is a local L1 destination");
    return dst.get_bank_base_address() + args.offset_bytes;
  }
};

template <typename T>
inline constexpr bool noc_zero_l1_endpoint_v<LocalTensorAccessor<T>> = true;
#endif

// One accessor per token of a binding sequence (tensor::<sequence>), in its order.
template <typename T, typename... Tokens>
std::array<LocalTensorAccessor<T>, sizeof...(Tokens)> make_local_tensor_accessors(const std::tuple<Tokens...>& tokens) {
  return std::apply(
      [](const auto&... toks) { return std::array<LocalTensorAccessor<T>, sizeof...(Tokens)>{LocalTensorAccessor<T>(toks)...}; },
      tokens);
}
