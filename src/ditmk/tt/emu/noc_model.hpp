#pragma once
// The timed NoCs and DRAM banks of the timing model. Each NoC is the 17 x 12 torus of Blackhole's
// NoC coordinates (tt-metal's soc descriptor: Tensix columns 1-7 and 10-16, rows 2-11; DRAM at
// columns 0 and 9), NoC 0 routing right then down, NoC 1 up then left. A packet holds each link of
// its route for one cycle per flit, entering it a hop latency after the previous one, and starts
// at the earliest time every link is free for it then (cut-through with back pressure); a packet
// may use a gap before a later packet's reservation (a DRAM response is booked for when the bank
// serves it). Packets wait only for packets of their own virtual-channel class (two classes of
// unicast requests, broadcasts, responses): the NoC interleaves the others onto the link, so they
// share its flits instead, a packet taking as much longer as the other classes' flits booked over
// it. A multicast holds each link of its tree once. A DRAM bank serves requests in order at its share of
// the streaming rate.
#include <cstdint>
#include <deque>
#include <vector>

#include "ditmk/tt/emu/timing_log.hpp"
#include "ditmk/tt/emu/timing_params.hpp"

namespace ditmk::tt::emu {

class NocModel {
 public:
  explicit NocModel(const TimingParams& params);

  // A write of `bytes` from core `src` to endpoint `dst` (core or DRAM bank) issued at `ready`:
  // when the data has landed, and when the acknowledgement is back at the source.
  struct Write {
    double landed = 0;
    double acked = 0;
  };
  // Transactions come in the order of their issue times; `now` is the latest (nothing after it can
  // start before it). `ready` is when the NoC has a transaction.
  void set_now(double now) { now_ = now; }
  Write write(uint32_t noc, uint32_t src, uint32_t dst, uint32_t bytes, bool bfp8, double ready);
  // A read by core `reader` of `bytes` at endpoint `src`: when the data is in the reader's L1.
  double read(uint32_t noc, uint32_t reader, uint32_t src, uint32_t bytes, bool bfp8, double ready);
  // A multicast from core `src` to `dests` (core indices inside `rect`): when each destination has
  // the data (same order as dests), and when the last acknowledgement is back.
  struct Multicast {
    std::vector<double> landed;
    double acked = 0;
  };
  Multicast multicast(uint32_t noc, uint32_t src, Rect rect, const std::vector<uint32_t>& dests, uint32_t bytes,
                      double ready);

 private:
  struct Node {
    int x = 0, y = 0;
  };
  struct Hop {
    uint32_t link;
    double offset;  // cycles after the packet's start at which it enters the link
  };
  struct Busy {
    double start, end;
  };
  enum class Traffic { request, broadcast, response };
  Node node_of(uint32_t endpoint) const;
  uint32_t link(uint32_t noc, Node at, int dir) const;
  // Unicast route: inject, the router hops, eject; returns the latency to the destination's L1.
  double route(uint32_t noc, Node from, Node to, std::vector<Hop>& hops) const;
  double route_latency(uint32_t noc, Node from, Node to) const;
  // Reserves `flits` cycles on every hop (`extra` more on the first) in a virtual channel of the
  // traffic's class, starting no earlier than `ready`; returns the start and the cycles the packet
  // takes to pass (its flits and the other classes' flits interleaved with them).
  struct Booking {
    double start, length;
  };
  Booking reserve(const std::vector<Hop>& hops, Traffic traffic, double flits, double ready, double extra = 0);
  double overlap(uint32_t link, uint32_t vc, double start, double end) const;
  double fit(const std::vector<Hop>& hops, uint32_t vc, double flits, double ready, double extra);
  // The earliest time from `t` at which `link` is free for `length` cycles.
  double earliest(uint32_t link, double t, double length);
  void book(uint32_t link, double start, double end);
  // Packets of one transfer along a unicast route, each ready at ready_of(byte offset of its end).
  double send(uint32_t noc, Node from, Node to, uint32_t bytes, double ready, double bytes_per_cycle, Traffic traffic);
  // A bank serving `bytes` from `arrival`: when its service ends.
  double serve_dram(uint32_t bank, uint32_t bytes, bool bfp8, double arrival);

  const TimingParams& p_;
  // Busy intervals of each link in time order; those over before the latest issue are dropped.
  std::vector<std::deque<Busy>> link_busy_;
  double now_ = 0;
  std::vector<double> bank_free_;
  std::vector<double> reader_free_;
};

}  // namespace ditmk::tt::emu
