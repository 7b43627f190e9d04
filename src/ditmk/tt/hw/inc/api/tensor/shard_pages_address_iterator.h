#pragma once
// TensorAccessor::shard_pages(shard_id[, start, end]): the pages of one shard in their order in the
// shard's bank (row-major inside the shard), from a start offset to an end offset in pages, passing
// over the pages of a partial shard that lie outside the tensor. Dereferenced, the iterator is the
// page (tensor_accessor::ShardPage: NoC address, page id, shard, index in the shard); `it += n`
// steps n pages, and n again while it lands outside the tensor, as tt-metal's iterator does.
#include <stddef.h>
#include <stdint.h>

#include "api/tensor/page.h"

namespace tensor_accessor {

template <typename Accessor>
class ShardPagesAddressIterator {
 public:
  using value_type = ShardPage<Accessor>;
  using difference_type = ptrdiff_t;
  using reference = const ShardPage<Accessor>&;
  using pointer = const ShardPage<Accessor>*;

  ShardPagesAddressIterator(const Accessor& accessor, uint32_t shard_id = 0, uint32_t start_page_offset = 0,
                            uint32_t end_page_offset = 0, uint8_t noc = noc_index)
      : accessor(accessor),
        current_page_id_in_shard(start_page_offset),
        end_page_id_in_shard(end_page_offset),
        current_shard_id(shard_id),
        noc(noc) {
    if (current_page_id_in_shard < end_page_id_in_shard && !locate()) step(1);
    update_current_page();
  }

  uint32_t page_id() const { return global_page_id; }

  reference operator*() const { return current_page; }
  pointer operator->() const { return &current_page; }

  ShardPagesAddressIterator& operator++() { return *this += 1; }
  ShardPagesAddressIterator operator++(int) {
    ShardPagesAddressIterator before = *this;
    ++*this;
    return before;
  }
  ShardPagesAddressIterator& operator+=(difference_type steps) {
    if (current_page_id_in_shard < end_page_id_in_shard) step(uint32_t(steps));
    update_current_page();
    return *this;
  }
  ShardPagesAddressIterator operator+(difference_type steps) const {
    ShardPagesAddressIterator moved = *this;
    moved += steps;
    return moved;
  }
  reference operator[](difference_type n) const {
    ShardPagesAddressIterator moved = *this;
    moved += n;
    indexed = *moved;
    return indexed;
  }

  bool operator==(const ShardPagesAddressIterator& other) const {
    return current_shard_id == other.current_shard_id && current_page_id_in_shard == other.current_page_id_in_shard;
  }
  bool operator!=(const ShardPagesAddressIterator& other) const { return !(*this == other); }
  bool operator<(const ShardPagesAddressIterator& other) const {
    return current_shard_id == other.current_shard_id && current_page_id_in_shard < other.current_page_id_in_shard;
  }
  bool operator>(const ShardPagesAddressIterator& other) const { return other < *this; }
  bool operator<=(const ShardPagesAddressIterator& other) const { return *this < other || *this == other; }
  bool operator>=(const ShardPagesAddressIterator& other) const { return !(*this < other); }

 private:
  // Moves on by `steps` pages until a page inside the tensor, or the end.
  void step(uint32_t steps) {
    do {
      current_page_id_in_shard += steps;
      if (current_page_id_in_shard >= end_page_id_in_shard) {
        current_page_id_in_shard = end_page_id_in_shard;
        return;
      }
    } while (!locate());
  }
  bool locate() { return accessor.shard_page_id(current_shard_id, current_page_id_in_shard, global_page_id); }
  void update_current_page() {
    if (current_page_id_in_shard < end_page_id_in_shard) {
      const uint64_t noc_addr =
          accessor.get_shard_noc_addr(current_shard_id, current_page_id_in_shard * accessor.get_aligned_page_size(), noc);
      current_page =
          ShardPage<Accessor>(noc_addr, global_page_id, &accessor, current_shard_id, current_page_id_in_shard, noc);
    }
  }

  const Accessor& accessor;
  uint32_t current_page_id_in_shard = 0;
  uint32_t end_page_id_in_shard = 0;
  uint32_t current_shard_id = 0;
  uint32_t global_page_id = 0;
  uint8_t noc = noc_index;
  ShardPage<Accessor> current_page{0, 0, nullptr, 0, 0};
  mutable ShardPage<Accessor> indexed{0, 0, nullptr, 0, 0};
};

// shard_pages()'s range: for (const auto& page : accessor.shard_pages(s)) ..., or begin() / end().
template <typename Accessor>
class ShardPages {
 public:
  using iterator = ShardPagesAddressIterator<Accessor>;
  using const_iterator = ShardPagesAddressIterator<Accessor>;

  ShardPages(const Accessor& accessor, uint32_t shard_id, uint32_t start_page_offset, uint32_t end_page_offset,
             uint8_t noc = noc_index)
      : accessor_(accessor),
        shard_id_(shard_id),
        start_page_offset_(start_page_offset),
        end_page_offset_(end_page_offset),
        noc_(noc) {}

  iterator begin() const { return iterator(accessor_, shard_id_, start_page_offset_, end_page_offset_, noc_); }
  iterator end() const { return iterator(accessor_, shard_id_, end_page_offset_, end_page_offset_, noc_); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }

 private:
  const Accessor& accessor_;
  uint32_t shard_id_;
  uint32_t start_page_offset_;
  uint32_t end_page_offset_;
  uint8_t noc_;
};

}  // namespace tensor_accessor
