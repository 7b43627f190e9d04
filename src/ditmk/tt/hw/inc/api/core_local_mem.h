#pragma once
// CoreLocalMem<T>: a typed handle on the running core's L1 at an address (a window address the
// kernel may dereference, as get_write_ptr and get_semaphore give). It indexes and steps by
// elements of T, compares by address, and in a data-movement kernel is a local L1 NoC endpoint
// ({.offset_bytes = n} bytes past its address).
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "api/lock.h"
#include "ditmk/attributes.h"
#if !defined(COMPILE_FOR_TRISC)
#include "api/dataflow/noc.h"
// 0.81.1 brings the TensorAccessor endpoint in with the buffer types (its DRAM zeroing uses it).
#include "api/tensor/noc_traits.h"
#endif

template <typename T, typename AddressType = uintptr_t>
class CoreLocalMem {
  using difference_type = ptrdiff_t;
  static_assert(std::is_integral_v<AddressType> && std::is_unsigned_v<AddressType>,
                "CoreLocalMem: the address type must be an unsigned integer");
  static_assert(sizeof(AddressType) >= sizeof(difference_type),
                "CoreLocalMem: the address type must hold a pointer difference");

 public:
  CoreLocalMem(AddressType address) : address_(address) {}
  CoreLocalMem(T* ptr) : address_(reinterpret_cast<AddressType>(ptr)) {}
  CoreLocalMem(const CoreLocalMem&) = default;
  CoreLocalMem& operator=(const CoreLocalMem&) = default;

  tt_l1_ptr T* get_unsafe_ptr() const { return reinterpret_cast<tt_l1_ptr T*>(address_); }
  AddressType get_address() const { return address_; }

  T& operator[](uint32_t index) const { return get_unsafe_ptr()[index]; }
  T& operator*() const { return *get_unsafe_ptr(); }
  tt_l1_ptr T* operator->() const { return get_unsafe_ptr(); }

  CoreLocalMem& operator+=(difference_type offset) {
    address_ += offset * sizeof(T);
    return *this;
  }
  CoreLocalMem& operator-=(difference_type offset) {
    address_ -= offset * sizeof(T);
    return *this;
  }
  CoreLocalMem& operator++() { return *this += 1; }
  CoreLocalMem& operator--() { return *this -= 1; }
  CoreLocalMem operator++(int) {
    CoreLocalMem before = *this;
    ++*this;
    return before;
  }
  CoreLocalMem operator--(int) {
    CoreLocalMem before = *this;
    --*this;
    return before;
  }
  CoreLocalMem operator+(difference_type offset) const { return CoreLocalMem(address_ + offset * sizeof(T)); }
  CoreLocalMem operator-(difference_type offset) const { return CoreLocalMem(address_ - offset * sizeof(T)); }
  difference_type operator-(const CoreLocalMem& other) const {
    return (difference_type(address_) - difference_type(other.address_)) / difference_type(sizeof(T));
  }

  // tt-metal records the lock for its NoC debugger and keeps caches coherent; the emulator's L1 has
  // no cache, so there is nothing to hold.
  [[nodiscard]] auto scoped_lock(size_t) const {
    return Lock([]() {});
  }

  bool operator==(const CoreLocalMem& other) const { return address_ == other.address_; }
  bool operator!=(const CoreLocalMem& other) const { return address_ != other.address_; }
  bool operator<(const CoreLocalMem& other) const { return address_ < other.address_; }
  bool operator<=(const CoreLocalMem& other) const { return address_ <= other.address_; }
  bool operator>(const CoreLocalMem& other) const { return address_ > other.address_; }
  bool operator>=(const CoreLocalMem& other) const { return address_ >= other.address_; }
  explicit operator bool() const { return address_ != 0; }

 private:
  AddressType address_;
};

#if !defined(COMPILE_FOR_TRISC)
template <typename T, typename AddressType>
struct noc_traits_t<CoreLocalMem<T, AddressType>> {
  struct src_args_type {
    AddressType offset_bytes = 0;
  };
  using dst_args_type = src_args_type;

  template <Noc::AddressType address_type>
  static uint32_t src_addr(const CoreLocalMem<T, AddressType>& src, const Noc&, const src_args_type& args) {
    static_assert(address_type == Noc::AddressType::LOCAL_L1, "a CoreLocalMem is a local L1 source");
    return uint32_t(src.get_address() + args.offset_bytes);
  }
  template <Noc::AddressType address_type>
  static uint32_t dst_addr(const CoreLocalMem<T, AddressType>& dst, const Noc&, const dst_args_type& args) {
    static_assert(address_type == Noc::AddressType::LOCAL_L1, "a CoreLocalMem is a local L1 destination");
    return uint32_t(dst.get_address() + args.offset_bytes);
  }
};
#endif
