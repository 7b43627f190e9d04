#pragma once
// A circular buffer as a NoC endpoint (api/dataflow/noc.h), for CircularBuffer and DataflowBuffer
// alike: a local L1 source at the address Source picks (its read pointer), a local L1 destination at
// the address Destination picks (its write pointer), {.offset_bytes = n} bytes further on; or, given
// a multicast rectangle, the destination address on every core of it (a CB lies at one address on all
// the cores of its set).
#include <stdint.h>

#include "api/dataflow/noc.h"

namespace ditmk::detail {

struct CbOffsetArgs {
  uint32_t offset_bytes{};
};

template <typename Endpoint, typename Args, uint32_t (*Source)(const Endpoint&),
          uint32_t (*Destination)(const Endpoint&)>
struct CbNocTraits {
  using src_args_type = Args;
  using dst_args_type = Args;
  struct dst_args_mcast_type {
    uint32_t noc_x_start{};
    uint32_t noc_y_start{};
    uint32_t noc_x_end{};
    uint32_t noc_y_end{};
    uint32_t offset_bytes{};
  };

  template <Noc::AddressType address_type>
  static uint32_t src_addr(const Endpoint& src, const Noc&, const Args& args) {
    static_assert(address_type == Noc::AddressType::LOCAL_L1,
                  "a circular buffer is a local L1 source: it cannot be read over the NoC");
    return Source(src) + args.offset_bytes;
  }
  template <Noc::AddressType address_type>
  static uint32_t dst_addr(const Endpoint& dst, const Noc&, const Args& args) {
    static_assert(address_type == Noc::AddressType::LOCAL_L1,
                  "a circular buffer is a local L1 destination unless given a multicast rectangle");
    return Destination(dst) + args.offset_bytes;
  }
  template <Noc::AddressType address_type>
  static uint64_t dst_addr_mcast(const Endpoint& dst, const Noc& noc, const dst_args_mcast_type& args) {
    static_assert(address_type == Noc::AddressType::NOC, "a multicast destination is a NoC address");
    return ::get_noc_multicast_addr(args.noc_x_start, args.noc_y_start, args.noc_x_end, args.noc_y_end,
                                    Destination(dst) + args.offset_bytes, noc.get_noc_id());
  }
};

}  // namespace ditmk::detail
