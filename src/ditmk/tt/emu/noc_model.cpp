#include "ditmk/tt/emu/noc_model.hpp"

#include <algorithm>
#include <cmath>

namespace ditmk::tt::emu {

namespace {

constexpr int kNocX = 17, kNocY = 12;
constexpr int kNodes = kNocX * kNocY;
constexpr int kInject = 0, kMoveX = 1, kMoveY = 2, kEject = 3;
constexpr uint32_t kVcs = 4;  // virtual-channel classes per link: two of unicast requests, broadcasts, responses
// tt-metal's blackhole_140_arch.yaml: the DRAM endpoint a worker reads each bank through
constexpr int kBankNode[kNumDramBanks][2] = {{0, 11}, {0, 3}, {0, 8}, {0, 6}, {9, 11}, {9, 3}, {9, 8}, {9, 6}};

// Logical worker column -> NoC column: Tensix columns are 1-7 and 10-16.
int noc_x(uint32_t x) { return x < 7 ? int(x) + 1 : int(x) + 3; }
int noc_y(uint32_t y) { return int(y) + 2; }

int step(int v, int size, int dir) { return (v + size + dir) % size; }

}  // namespace

NocModel::NocModel(const TimingParams& params)
    : p_(params), link_busy_(std::size_t(2) * kNodes * 4 * kVcs), bank_free_(kNumDramBanks, 0.0),
      reader_free_(kNumCores, 0.0) {}

NocModel::Node NocModel::node_of(uint32_t endpoint) const {
  if (endpoint >= kDramEndpoint) {
    const uint32_t bank = endpoint - kDramEndpoint;
    return {kBankNode[bank][0], kBankNode[bank][1]};
  }
  const CoreCoord core = core_at(endpoint);
  return {noc_x(core.x), noc_y(core.y)};
}

uint32_t NocModel::link(uint32_t noc, Node at, int dir) const {
  return ((noc * kNodes + uint32_t(at.y * kNocX + at.x)) * 4) + uint32_t(dir);
}

double NocModel::route(uint32_t noc, Node from, Node to, std::vector<Hop>& hops) const {
  const int dir = noc == 0 ? 1 : -1;
  double offset = 0;
  hops.push_back({link(noc, from, kInject), offset});
  offset += p_.noc_niu_cycles;
  Node at = from;
  auto move_x = [&] {
    while (at.x != to.x) {
      hops.push_back({link(noc, at, kMoveX), offset});
      offset += p_.noc_hop_cycles;
      at.x = step(at.x, kNocX, dir);
    }
  };
  auto move_y = [&] {
    while (at.y != to.y) {
      hops.push_back({link(noc, at, kMoveY), offset});
      offset += p_.noc_hop_cycles;
      at.y = step(at.y, kNocY, dir);
    }
  };
  // NoC 0: right, then down; NoC 1: up, then left
  if (noc == 0) move_x(), move_y();
  else move_y(), move_x();
  hops.push_back({link(noc, to, kEject), offset});
  return offset + p_.noc_niu_cycles;
}

double NocModel::route_latency(uint32_t noc, Node from, Node to) const {
  std::vector<Hop> hops;
  return route(noc, from, to, hops);
}

double NocModel::earliest(uint32_t link, double t, double length) {
  std::deque<Busy>& busy = link_busy_[link];
  while (!busy.empty() && busy.front().end <= now_) busy.pop_front();
  for (const Busy& b : busy) {
    if (b.end <= t) continue;
    if (b.start >= t + length) break;
    t = b.end;
  }
  return t;
}

void NocModel::book(uint32_t link, double start, double end) {
  std::deque<Busy>& busy = link_busy_[link];
  auto at = std::upper_bound(busy.begin(), busy.end(), start, [](double v, const Busy& b) { return v < b.start; });
  busy.insert(at, {start, end});
}

double NocModel::fit(const std::vector<Hop>& hops, uint32_t vc, double flits, double ready, double extra) {
  double start = ready;
  // move the start until every hop is free when the packet reaches it
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t i = 0; i < hops.size(); ++i) {
      const double length = flits + (i == 0 ? extra : 0);
      const double at = earliest(hops[i].link * kVcs + vc, start + hops[i].offset, length);
      if (at > start + hops[i].offset) {
        start = at - hops[i].offset;
        moved = true;
        break;
      }
    }
  }
  return start;
}

double NocModel::overlap(uint32_t link, uint32_t vc, double start, double end) const {
  double cycles = 0;
  for (uint32_t other = 0; other < kVcs; ++other) {
    if (other == vc) continue;
    for (const Busy& b : link_busy_[link * kVcs + other]) {
      if (b.start >= end) break;
      cycles += std::max(0.0, std::min(end, b.end) - std::max(start, b.start));
    }
  }
  return cycles;
}

NocModel::Booking NocModel::reserve(const std::vector<Hop>& hops, Traffic traffic, double flits, double ready,
                                    double extra) {
  uint32_t vc = traffic == Traffic::broadcast ? 2 : traffic == Traffic::response ? 3 : 0;
  double start = fit(hops, vc, flits, ready, extra);
  if (traffic == Traffic::request) {
    const double other = fit(hops, 1, flits, ready, extra);
    if (other < start) start = other, vc = 1;
  }
  // the slowest link sets the pace of the whole packet
  double shared = 0;
  for (const Hop& h : hops) shared = std::max(shared, overlap(h.link, vc, start + h.offset, start + h.offset + flits));
  const double length = flits + shared;
  for (std::size_t i = 0; i < hops.size(); ++i) {
    book(hops[i].link * kVcs + vc, start + hops[i].offset, start + hops[i].offset + length + (i == 0 ? extra : 0));
  }
  return {start, length};
}

double NocModel::send(uint32_t noc, Node from, Node to, uint32_t bytes, double ready, double bytes_per_cycle,
                      Traffic traffic) {
  std::vector<Hop> hops;
  const double latency = route(noc, from, to, hops);
  double arrived = ready;
  for (uint32_t sent = 0; sent < bytes || sent == 0;) {
    const uint32_t packet = std::min<uint32_t>(bytes - sent, uint32_t(p_.noc_packet_bytes));
    sent += packet;
    // a paced source (a DRAM bank) has the packet only once it has served its last byte
    const double available = bytes_per_cycle > 0 ? ready + sent / bytes_per_cycle : ready;
    const double flits = std::ceil(packet / p_.noc_flit_bytes) + 1;
    const Booking b = reserve(hops, traffic, flits, available);
    arrived = std::max(arrived, b.start + latency + b.length);
    if (packet == 0) break;
  }
  return arrived;
}

double NocModel::serve_dram(uint32_t bank, uint32_t bytes, bool bfp8, double arrival) {
  const double rate = bfp8 ? p_.dram_bank_bfp8_bytes_per_cycle : p_.dram_bank_bf16_bytes_per_cycle;
  const double start = std::max(arrival, bank_free_[bank]);
  bank_free_[bank] = start + bytes / rate;
  return start;
}

NocModel::Write NocModel::write(uint32_t noc, uint32_t src, uint32_t dst, uint32_t bytes, bool bfp8, double ready) {
  const Node from = node_of(src), to = node_of(dst);
  const double half = p_.noc_write_fixed_cycles / 2;
  double landed = send(noc, from, to, bytes, ready + half, 0, Traffic::request);
  if (dst >= kDramEndpoint) {
    const double rate = bfp8 ? p_.dram_bank_bfp8_bytes_per_cycle : p_.dram_bank_bf16_bytes_per_cycle;
    landed = serve_dram(dst - kDramEndpoint, bytes, bfp8, landed) + bytes / rate;
  }
  const double acked = landed + route_latency(noc, to, from) + 1 + half;
  return {landed, acked};
}

double NocModel::read(uint32_t noc, uint32_t reader, uint32_t src, uint32_t bytes, bool bfp8, double ready) {
  const Node me = node_of(reader), from = node_of(src);
  const double half = p_.noc_read_fixed_cycles / 2;
  const double requested = ready + half + route_latency(noc, me, from) + 1;
  if (src < kDramEndpoint) return send(noc, from, me, bytes, requested, 0, Traffic::response) + half;
  // the bank serves in arrival order; one reader cannot take more than its own port's rate
  double start = serve_dram(src - kDramEndpoint, bytes, bfp8, requested + p_.dram_access_cycles);
  start = std::max(start, reader_free_[reader]);
  reader_free_[reader] = start + bytes / p_.dram_reader_bytes_per_cycle;
  const double rate = bfp8 ? p_.dram_bank_bfp8_bytes_per_cycle : p_.dram_bank_bf16_bytes_per_cycle;
  return send(noc, from, me, bytes, start, rate, Traffic::response) + half;
}

NocModel::Multicast NocModel::multicast(uint32_t noc, uint32_t src, Rect rect, const std::vector<uint32_t>& dests,
                                        uint32_t bytes, double ready) {
  // The tree with X as the major axis: along the source's row to the rectangle's first column in
  // the NoC's direction, along that column through every row of the rectangle, then along each row.
  const int dir = noc == 0 ? 1 : -1;
  const Node from = node_of(src);
  const int x_first = noc == 0 ? noc_x(rect.x0) : noc_x(rect.x1);
  const int x_last = noc == 0 ? noc_x(rect.x1) : noc_x(rect.x0);
  const int y_lo = noc_y(rect.y0), y_hi = noc_y(rect.y1);
  std::vector<Hop> tree;
  std::vector<double> node_offset(kNodes, -1);
  double offset = 0;
  tree.push_back({link(noc, from, kInject), offset});
  offset += p_.noc_niu_cycles;
  Node at = from;
  while (at.x != x_first) {
    tree.push_back({link(noc, at, kMoveX), offset});
    offset += p_.noc_hop_cycles;
    at.x = step(at.x, kNocX, dir);
  }
  const int rows = y_hi - y_lo + 1;
  for (int visited = 0;;) {
    if (at.y >= y_lo && at.y <= y_hi) {
      ++visited;
      Node row = at;
      double row_offset = offset;
      node_offset[row.y * kNocX + row.x] = row_offset;
      while (row.x != x_last) {
        tree.push_back({link(noc, row, kMoveX), row_offset});
        row_offset += p_.noc_hop_cycles;
        row.x = step(row.x, kNocX, dir);
        node_offset[row.y * kNocX + row.x] = row_offset;
      }
    }
    if (visited == rows) break;
    tree.push_back({link(noc, at, kMoveY), offset});
    offset += p_.noc_hop_cycles;
    at.y = step(at.y, kNocY, dir);
  }
  std::vector<double> eject_offset;
  for (uint32_t d : dests) {
    const Node n = node_of(d);
    const double o = node_offset[n.y * kNocX + n.x];
    tree.push_back({link(noc, n, kEject), o});
    eject_offset.push_back(o + p_.noc_niu_cycles);
  }
  const double half = p_.noc_write_fixed_cycles / 2;
  const double acks = p_.mcast_base_cycles + p_.mcast_dest_cycles * double(dests.size());
  Multicast out;
  out.landed.assign(dests.size(), ready);
  double start = ready + half;
  for (uint32_t sent = 0; sent < bytes || sent == 0;) {
    const uint32_t packet = std::min<uint32_t>(bytes - sent, uint32_t(p_.noc_packet_bytes));
    sent += packet;
    const double flits = std::ceil(packet / p_.noc_flit_bytes) + 1;
    // the sender's port is also busy with the path reservation and the packet's acknowledgements
    const Booking b = reserve(tree, Traffic::broadcast, flits, start, acks);
    start = b.start;
    for (std::size_t i = 0; i < dests.size(); ++i) out.landed[i] = start + eject_offset[i] + b.length + half;
    if (packet == 0) break;
  }
  for (std::size_t i = 0; i < dests.size(); ++i) {
    out.acked = std::max(out.acked, out.landed[i] + route_latency(noc, node_of(dests[i]), from) + 1 + half);
  }
  return out;
}

}  // namespace ditmk::tt::emu
