#pragma once
// A tensor's page as its accessors' iterators yield it (TensorAccessor::shard_pages): its NoC address
// and its id among the tensor's pages; a ShardPage also knows its shard and its index in the shard.
// A page is a NoC endpoint of its own bytes ({.offset_bytes = b}, api/tensor/noc_traits.h).
#include <stdint.h>

#include "ditmk/noc_index.h"

namespace tensor_accessor {

class Page {
 public:
  Page(uint64_t noc_addr, uint32_t global_page_id) : noc_addr_(noc_addr), global_page_id_(global_page_id) {}

  uint64_t noc_addr() const { return noc_addr_; }
  uint32_t page_id() const { return global_page_id_; }

 private:
  uint64_t noc_addr_;
  uint32_t global_page_id_;
};

// A Page that also remembers the accessor it came from.
template <typename Accessor>
class AccessorPage : public Page {
 public:
  AccessorPage(uint64_t noc_addr, uint32_t global_page_id, const Accessor* accessor, uint8_t noc = noc_index)
      : Page(noc_addr, global_page_id), accessor_(accessor), noc_(noc) {}

  const Accessor& accessor() const { return *accessor_; }
  uint64_t noc_addr() const { return Page::noc_addr(); }

 private:
  const Accessor* accessor_;
  uint8_t noc_;
};

template <typename Accessor>
class ShardPage : public AccessorPage<Accessor> {
 public:
  ShardPage(uint64_t noc_addr, uint32_t global_page_id, const Accessor* accessor, uint32_t shard_id,
            uint32_t page_in_shard, uint8_t noc = noc_index)
      : AccessorPage<Accessor>(noc_addr, global_page_id, accessor, noc),
        shard_id_(shard_id),
        page_in_shard_(page_in_shard) {}

  uint32_t shard_id() const { return shard_id_; }
  uint32_t page_in_shard() const { return page_in_shard_; }
  uint64_t noc_addr() const { return Page::noc_addr(); }

 private:
  uint32_t shard_id_;
  uint32_t page_in_shard_;
};

}  // namespace tensor_accessor
