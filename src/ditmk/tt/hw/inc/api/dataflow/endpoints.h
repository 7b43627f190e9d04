#pragma once
// Plain NoC endpoints: a core's L1 by coordinates (UnicastEndpoint, {.noc_x, .noc_y, .addr}), a NoC
// address composed beforehand (PrecomposedUnicastEndpoint, {.noc_addr}), a rectangle of cores
// (MulticastEndpoint, {.noc_x_start, .noc_y_start, .noc_x_end, .noc_y_end, .addr}) and an allocator
// bank by number (AllocatorBank<L1 or DRAM>, {.bank_id, .addr}). A UnicastEndpoint asked for a local
// L1 address gives .addr: the running core's own memory.
#include <stdint.h>

#include "api/dataflow/noc.h"

struct UnicastEndpoint {
  uint64_t get_noc_unicast_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc) const {
    return ::get_noc_addr(noc_x, noc_y, addr, noc);
  }
};

struct PrecomposedUnicastEndpoint {};

struct MulticastEndpoint {
  uint64_t get_noc_multicast_addr(uint32_t noc_x_start, uint32_t noc_y_start, uint32_t noc_x_end, uint32_t noc_y_end,
                                  uint32_t addr, uint8_t noc) const {
    return ::get_noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end, addr, noc);
  }
};

enum class AllocatorBankType { L1, DRAM };

template <AllocatorBankType bank_type>
struct AllocatorBank {
  uint64_t get_noc_addr_from_bank_id(uint32_t bank_id, uint32_t addr, uint8_t noc) const {
    return ::get_noc_addr_from_bank_id<bank_type == AllocatorBankType::DRAM>(bank_id, addr, noc);
  }
};

template <>
struct noc_traits_t<UnicastEndpoint> {
  struct src_args_type {
    uint32_t noc_x{};
    uint32_t noc_y{};
    uint32_t addr{};
  };
  struct dst_args_type {
    uint32_t noc_x{};
    uint32_t noc_y{};
    uint32_t addr{};
  };

  template <Noc::AddressType address_type>
  static auto src_addr(const UnicastEndpoint& src, const Noc& noc, const src_args_type& args) {
    return address<address_type>(src, noc, args.noc_x, args.noc_y, args.addr);
  }
  template <Noc::AddressType address_type>
  static auto dst_addr(const UnicastEndpoint& dst, const Noc& noc, const dst_args_type& args) {
    return address<address_type>(dst, noc, args.noc_x, args.noc_y, args.addr);
  }

 private:
  template <Noc::AddressType address_type>
  static auto address(const UnicastEndpoint& endpoint, const Noc& noc, uint32_t x, uint32_t y, uint32_t addr) {
    if constexpr (address_type == Noc::AddressType::LOCAL_L1) {
      return addr;
    } else {
      return endpoint.get_noc_unicast_addr(x, y, addr, noc.get_noc_id());
    }
  }
};

template <>
struct noc_traits_t<PrecomposedUnicastEndpoint> {
  struct src_args_type {
    uint64_t noc_addr{};
  };
  struct dst_args_type {
    uint64_t noc_addr{};
  };

  template <Noc::AddressType address_type>
  static auto src_addr(const PrecomposedUnicastEndpoint&, const Noc&, const src_args_type& args) {
    static_assert(address_type == Noc::AddressType::NOC, "a precomposed NoC address is not a local L1 address");
    return args.noc_addr;
  }
  template <Noc::AddressType address_type>
  static auto dst_addr(const PrecomposedUnicastEndpoint&, const Noc&, const dst_args_type& args) {
    static_assert(address_type == Noc::AddressType::NOC, "a precomposed NoC address is not a local L1 address");
    return args.noc_addr;
  }
};

template <>
struct noc_traits_t<MulticastEndpoint> {
  struct dst_args_mcast_type {
    uint32_t noc_x_start{};
    uint32_t noc_y_start{};
    uint32_t noc_x_end{};
    uint32_t noc_y_end{};
    uint32_t addr{};
  };

  template <Noc::AddressType address_type>
  static auto dst_addr_mcast(const MulticastEndpoint& dst, const Noc& noc, const dst_args_mcast_type& args) {
    static_assert(address_type == Noc::AddressType::NOC, "a multicast destination is a NoC address");
    return dst.get_noc_multicast_addr(args.noc_x_start, args.noc_y_start, args.noc_x_end, args.noc_y_end, args.addr,
                                      noc.get_noc_id());
  }
};

template <AllocatorBankType bank_type>
struct noc_traits_t<AllocatorBank<bank_type>> {
  struct src_args_type {
    uint32_t bank_id{};
    uint32_t addr{};
  };
  struct dst_args_type {
    uint32_t bank_id{};
    uint32_t addr{};
  };

  template <Noc::AddressType address_type>
  static auto src_addr(const AllocatorBank<bank_type>& src, const Noc& noc, const src_args_type& args) {
    static_assert(address_type == Noc::AddressType::NOC, "an allocator bank is reached over the NoC");
    return src.get_noc_addr_from_bank_id(args.bank_id, args.addr, noc.get_noc_id());
  }
  template <Noc::AddressType address_type>
  static auto dst_addr(const AllocatorBank<bank_type>& dst, const Noc& noc, const dst_args_type& args) {
    static_assert(address_type == Noc::AddressType::NOC, "an allocator bank is reached over the NoC");
    return dst.get_noc_addr_from_bank_id(args.bank_id, args.addr, noc.get_noc_id());
  }
};
