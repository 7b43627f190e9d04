#pragma once
// The kernel's lists: a fixed capacity on the stack, no allocation (a device kernel has no heap).
// Capacities are the protocol's own bounds (members of an exchange, tiles of a contribution);
// pushing past one is a kernel bug and stops the program.
//
// Freestanding on purpose (<stdint.h> and <initializer_list> only): the kernel in tt-metal's
// dialect includes it as it is.
#include <stdint.h>

#include <initializer_list>

namespace ditmk::tt::kernel {

template <typename T, uint32_t Capacity>
class SmallList {
  // Items are copied in as bytes into storage left uninitialised, so an empty list of tiles costs
  // nothing: T must be trivially copyable (tiles, indices, plain records).
  static_assert(__is_trivially_copyable(T), "SmallList holds trivially copyable items");

 public:
  SmallList() = default;
  SmallList(std::initializer_list<T> items) {
    for (const T& item : items) push_back(item);
  }
  SmallList(const SmallList& other) : size_(other.size_) {
    __builtin_memcpy(storage_, other.storage_, sizeof(T) * size_);
  }
  SmallList& operator=(const SmallList& other) {
    size_ = other.size_;
    __builtin_memcpy(storage_, other.storage_, sizeof(T) * size_);
    return *this;
  }
  void push_back(const T& item) {
    if (size_ == Capacity) __builtin_trap();
    __builtin_memcpy(storage_ + sizeof(T) * size_++, &item, sizeof(T));
  }
  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](uint32_t i) { return begin()[i]; }
  const T& operator[](uint32_t i) const { return begin()[i]; }
  T* begin() { return reinterpret_cast<T*>(storage_); }
  T* end() { return begin() + size_; }
  const T* begin() const { return reinterpret_cast<const T*>(storage_); }
  const T* end() const { return begin() + size_; }

 private:
  alignas(T) unsigned char storage_[sizeof(T) * Capacity];
  uint32_t size_ = 0;
};

// Two indices that travel together: (row, column tile) of a table, (tile offset, page) of a
// contribution.
struct IndexPair {
  uint32_t first = 0;
  uint32_t second = 0;
};

}  // namespace ditmk::tt::kernel
