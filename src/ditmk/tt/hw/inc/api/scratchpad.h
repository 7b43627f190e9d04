#pragma once
// Scratchpad<T>: a Metal 2.0 kernel's private L1 region on the running core (the host's
// ScratchpadSpec), opened from its scratch::<name> token: T elements from the base address the
// token's common runtime arg holds, size_in_bytes / sizeof(T) of them, uninitialised. Indexing past
// the end faults (as tt-metal's ASSERT with its watcher on). In a data-movement kernel it is a
// local L1 NoC endpoint ({.offset_bytes = n} bytes past its base) and may be zeroed by
// Noc::async_write_zeros.
#include <stdint.h>

#include <type_traits>

#include "api/core_local_mem.h"
#include "api/debug/assert.h"
#include "api/scratchpad_binding_token.h"
#include "ditmk/kernel_args.h"  // get_common_arg_val

enum class DataFormat : uint8_t;

template <typename T>
class Scratchpad {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using size_type = uint32_t;
  using pointer = CoreLocalMem<T>;
  using const_pointer = CoreLocalMem<const T>;
  using reference = T&;
  using const_reference = const T&;
  using iterator = pointer;

  [[nodiscard]] explicit Scratchpad(const ScratchpadBindingToken& token) noexcept
      : Scratchpad(pointer{uintptr_t(get_common_arg_val<uint32_t>(token.crta_offset_))}, token.size_in_bytes_,
                   static_cast<DataFormat>(token.llk_metadata_.format)) {}

  [[nodiscard]] reference operator[](uint32_t index) const {
    auto location = start_addr_ + index;
    ASSERT(location < sentinel_addr_);
    return *location;
  }
  [[nodiscard]] size_type size() const noexcept { return size_in_bytes() / sizeof(T); }
  [[nodiscard]] size_type size_in_bytes() const noexcept {
    return size_type(sentinel_addr_.get_address() - start_addr_.get_address());
  }
  [[nodiscard]] constexpr DataFormat get_dataformat() const noexcept { return data_format_; }
  [[nodiscard]] uint32_t get_base_address() const noexcept { return uint32_t(start_addr_.get_address()); }
  [[nodiscard]] iterator begin() const noexcept { return start_addr_; }
  [[nodiscard]] iterator end() const noexcept { return sentinel_addr_; }
  [[nodiscard]] pointer local_mem() const noexcept { return start_addr_; }
  [[nodiscard]] auto scoped_lock(uint32_t offset, uint32_t num_elements) const {
    ASSERT(start_addr_ + offset + num_elements <= sentinel_addr_);
    return (start_addr_ + offset).scoped_lock(num_elements);
  }

 private:
  Scratchpad(pointer base, size_type size_in_bytes, DataFormat data_format) noexcept
      : start_addr_(base), sentinel_addr_(pointer{base.get_address() + uintptr_t{size_in_bytes}}),
        data_format_(data_format) {
    ASSERT(base.get_address() % alignof(T) == 0);
    ASSERT(size_in_bytes % sizeof(T) == 0);
  }

  pointer start_addr_, sentinel_addr_;
  DataFormat data_format_;
};

#if !defined(COMPILE_FOR_TRISC)
template <typename T>
struct noc_traits_t<Scratchpad<T>> {
  struct src_args_type {
    uint32_t offset_bytes = 0;
  };
  struct dst_args_type {
    uint32_t offset_bytes = 0;
  };
  struct dst_args_mcast_type {};

  template <Noc::AddressType address_type>
  static uint32_t src_addr(const Scratchpad<T>& src, const Noc&, const src_args_type& args) {
    static_assert(address_type == Noc::AddressType::LOCAL_L1, "a Scratchpad is a local L1 source");
    ASSERT(args.offset_bytes < src.size_in_bytes());
    return src.get_base_address() + args.offset_bytes;
  }
  template <Noc::AddressType address_type>
  static uint32_t dst_addr(const Scratchpad<T>& dst, const Noc&, const dst_args_type& args) {
    static_assert(address_type == Noc::AddressType::LOCAL_L1, "a Scratchpad is a local L1 destination");
    ASSERT(args.offset_bytes < dst.size_in_bytes());
    return dst.get_base_address() + args.offset_bytes;
  }
};

template <typename T>
inline constexpr bool noc_zero_l1_endpoint_v<Scratchpad<T>> = true;
template <typename T>
inline constexpr bool is_scratchpad_v<Scratchpad<T>> = true;
#endif
