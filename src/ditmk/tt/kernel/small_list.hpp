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
 public:
  SmallList() = default;
  SmallList(std::initializer_list<T> items) {
    for (const T& item : items) push_back(item);
  }
  void push_back(const T& item) {
    if (size_ == Capacity) __builtin_trap();
    items_[size_++] = item;
  }
  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](uint32_t i) { return items_[i]; }
  const T& operator[](uint32_t i) const { return items_[i]; }
  T* begin() { return items_; }
  T* end() { return items_ + size_; }
  const T* begin() const { return items_; }
  const T* end() const { return items_ + size_; }

 private:
  T items_[Capacity] = {};
  uint32_t size_ = 0;
};

// Two indices that travel together: (row, column tile) of a table, (tile offset, page) of a
// contribution.
struct IndexPair {
  uint32_t first = 0;
  uint32_t second = 0;
};

}  // namespace ditmk::tt::kernel
