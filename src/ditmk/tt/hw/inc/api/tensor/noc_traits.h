#pragma once
// A TensorAccessor as a NoC endpoint (api/dataflow/noc.h): {.page_id = p, .offset_bytes = b} is byte
// b of page p. PageView and ShardView make the same accessor an endpoint of pages or of whole shards
// ({.shard_id = s}). An address asked for as local L1 must lie on the running core.
#include <stdint.h>

#include "api/dataflow/noc.h"
#include "api/tensor/tensor_accessor.h"

namespace ditmk::detail {

// Endpoint traits over an accessor-like view: View::get_noc_addr(id, offset, noc) names the bytes;
// Args is the designated-initialiser type whose `Id` member picks the page or shard.
template <typename View, typename Args, uint32_t Args::*Id>
struct ViewNocTraits {
  using src_args_type = Args;
  using dst_args_type = Args;

  template <Noc::AddressType address_type>
  static auto addr(const View& view, const Noc& noc, const Args& args)
      -> std::conditional_t<address_type == Noc::AddressType::LOCAL_L1, uint32_t, uint64_t> {
    const uint64_t noc_addr = view.get_noc_addr(args.*Id, args.offset_bytes, noc.get_noc_id());
    if constexpr (address_type == Noc::AddressType::LOCAL_L1) {
      if (!noc.is_local_addr(noc_addr)) {
        fault(DITMK_FAULT_BAD_CALL, Message() << "a tensor's page or shard " << args.*Id
                                              << " used as local L1 lies on another core");
      }
      return uint32_t(noc_addr);
    } else {
      return noc_addr;
    }
  }
  template <Noc::AddressType address_type>
  static auto src_addr(const View& src, const Noc& noc, const Args& args) {
    return addr<address_type>(src, noc, args);
  }
  template <Noc::AddressType address_type>
  static auto dst_addr(const View& dst, const Noc& noc, const Args& args) {
    return addr<address_type>(dst, noc, args);
  }
};

struct PageArgs {
  uint32_t page_id{};
  uint32_t offset_bytes = 0;
};

struct ShardArgs {
  uint32_t shard_id{};
  uint32_t offset_bytes = 0;
};

// Byte `offset_bytes` of a page an accessor's iterator yielded.
template <Noc::AddressType address_type>
auto page_endpoint_addr(const tensor_accessor::Page& page, const Noc& noc, uint32_t offset_bytes)
    -> std::conditional_t<address_type == Noc::AddressType::LOCAL_L1, uint32_t, uint64_t> {
  const uint64_t noc_addr = page.noc_addr() + offset_bytes;
  if constexpr (address_type == Noc::AddressType::LOCAL_L1) {
    if (!noc.is_local_addr(noc_addr)) {
      fault(DITMK_FAULT_BAD_CALL, Message() << "a tensor's page " << page.page_id()
                                            << " used as local L1 lies on another core");
    }
    return uint32_t(noc_addr);
  } else {
    return noc_addr;
  }
}

}  // namespace ditmk::detail

template <typename DSpecT>
struct noc_traits_t<TensorAccessor<DSpecT>>
    : ditmk::detail::ViewNocTraits<TensorAccessor<DSpecT>, ditmk::detail::PageArgs, &ditmk::detail::PageArgs::page_id> {
};

template <typename Accessor>
struct noc_traits_t<PageView<Accessor>>
    : ditmk::detail::ViewNocTraits<PageView<Accessor>, ditmk::detail::PageArgs, &ditmk::detail::PageArgs::page_id> {};

template <typename Accessor>
struct noc_traits_t<ShardView<Accessor>> : ditmk::detail::ViewNocTraits<ShardView<Accessor>, ditmk::detail::ShardArgs,
                                                                        &ditmk::detail::ShardArgs::shard_id> {};

// A type-erased accessor is an endpoint of pages as the accessor it wraps.
template <>
struct noc_traits_t<AbstractTensorAccessorWrapper>
    : ditmk::detail::ViewNocTraits<AbstractTensorAccessorWrapper, ditmk::detail::PageArgs,
                                   &ditmk::detail::PageArgs::page_id> {};

// A page an accessor's iterator yielded (shard_pages()) is an endpoint of its own bytes:
// {.offset_bytes = b} is byte b of the page (and on, through the pages after it in its bank).
template <>
struct noc_traits_t<tensor_accessor::Page> {
  struct src_args_type {
    uint32_t offset_bytes = 0;
  };
  struct dst_args_type {
    uint32_t offset_bytes = 0;
  };

  template <Noc::AddressType address_type>
  static auto src_addr(const tensor_accessor::Page& src, const Noc& noc, const src_args_type& args)
      -> std::conditional_t<address_type == Noc::AddressType::LOCAL_L1, uint32_t, uint64_t> {
    return ditmk::detail::page_endpoint_addr<address_type>(src, noc, args.offset_bytes);
  }
  template <Noc::AddressType address_type>
  static auto dst_addr(const tensor_accessor::Page& dst, const Noc& noc, const dst_args_type& args)
      -> std::conditional_t<address_type == Noc::AddressType::LOCAL_L1, uint32_t, uint64_t> {
    return ditmk::detail::page_endpoint_addr<address_type>(dst, noc, args.offset_bytes);
  }
};

template <typename Accessor>
struct noc_traits_t<tensor_accessor::AccessorPage<Accessor>> : noc_traits_t<tensor_accessor::Page> {};

template <typename Accessor>
struct noc_traits_t<tensor_accessor::ShardPage<Accessor>> : noc_traits_t<tensor_accessor::Page> {};
