#include "ditmk/tt/emu/timing_model.hpp"

#include <algorithm>
#include <map>
#include <queue>

#include <fmt/format.h>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/emu/noc_model.hpp"

namespace ditmk::tt::emu {

std::string_view path_part_name(PathPart part) {
  switch (part) {
    case PathPart::fpu: return "fpu";
    case PathPart::streaming: return "streaming";
    case PathPart::rounds: return "rounds";
    case PathPart::movers: return "movers";
    case PathPart::waits: return "waits";
  }
  return "?";
}

namespace {

bool interacts(OpKind kind) { return kind != OpKind::compute && kind != OpKind::mover; }

struct CbState {
  uint32_t pages = 0, pushed = 0, popped = 0;
  std::string name;
  WaitCause last_push, last_pop;
  std::vector<uint32_t> waiters;
};

struct SemState {
  uint32_t value = 0;
  std::string name;
  std::vector<uint32_t> waiters;
};

struct SemUpdate {
  uint32_t key = 0;
  bool set = false;
  uint32_t value = 0;
  WaitCause cause;
};

struct Event {
  double time = 0;
  uint64_t seq = 0;
  bool sem_update = false;
  uint32_t index = 0;  // processor, or SemUpdate
  bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

struct Proc {
  const ProcessorLog* log = nullptr;
  std::size_t pc = 0;
  double clock = 0;
  bool done = false, blocked = false;
  double reads_done = 0, writes_done = 0;
  WaitCause reads_cause, writes_cause;
  uint32_t wait_key = 0;  // CB or semaphore key while blocked
  double wait_start = 0;
  uint32_t wait_label = 0;
  std::vector<std::size_t> zone_stack;
};

class Replay {
 public:
  Replay(const TimingLog& log, const Program& program, const TimingParams& params)
      : p_(params), noc_(params), cbs_(std::size_t(kNumCores) * kMaxCbId),
        sems_(std::size_t(kNumCores) * kSemaphoresPerCore) {
    out_.hz = params.aiclk_hz;
    out_.zone_names = log.zone_names;
    for (const CbConfig& cb : program.cbs) {
      for (CoreCoord core : cb.cores) {
        CbState& s = cbs_[core_index(core) * kMaxCbId + cb.id];
        s.pages = cb.total_bytes / cb.page_bytes;
        s.name = cb.name;
      }
    }
    for (CoreCoord core : program.cores) {
      for (const SemaphoreConfig& sem : program.semaphores) {
        SemState& s = sems_[core_index(core) * kSemaphoresPerCore + sem.id];
        s.value = sem.initial_value;
        s.name = sem.name;
      }
    }
    procs_.resize(log.processors.size());
    for (std::size_t i = 0; i < procs_.size(); ++i) {
      procs_[i].log = &log.processors[i];
      out_.processors.push_back({log.processors[i].core, log.processors[i].processor, {}, 0});
      schedule_step(uint32_t(i), 0);
    }
  }

  TimingResult run() {
    while (!queue_.empty()) {
      const Event e = queue_.top();
      queue_.pop();
      if (e.sem_update) {
        apply(updates_[e.index], e.time);
        continue;
      }
      Proc& p = procs_[e.index];
      if (p.done || p.blocked) continue;
      p.clock = std::max(p.clock, e.time);
      advance(e.index);
    }
    std::vector<std::string> stuck;
    for (std::size_t i = 0; i < procs_.size(); ++i) {
      if (procs_[i].done) continue;
      const ProcessorLog& l = *procs_[i].log;
      stuck.push_back(fmt::format("core {} {} at {}", core_name(core_at(l.core)), processor_name(l.processor),
                                  out_.labels.at(procs_[i].wait_label)));
    }
    if (!stuck.empty()) {
      fail("timing model: {} processors wait forever in time order ({}): the recorded order depended on the "
           "host's scheduling", stuck.size(), stuck.front());
    }
    for (const ProcessorTimeline& t : out_.processors) out_.end = std::max(out_.end, t.end);
    return std::move(out_);
  }

 private:
  uint32_t label(std::string_view text) {
    auto it = label_ids_.find(text);
    if (it != label_ids_.end()) return it->second;
    const uint32_t id = uint32_t(out_.labels.size());
    out_.labels.emplace_back(text);
    label_ids_.emplace(std::string(text), id);
    return id;
  }

  void schedule_step(uint32_t proc, double time) { queue_.push({time, seq_++, false, proc}); }

  void schedule_update(SemUpdate update, double time) {
    updates_.push_back(update);
    queue_.push({time, seq_++, true, uint32_t(updates_.size() - 1)});
  }

  void add_span(uint32_t proc, double start, double end, SpanKind kind, uint32_t label, WaitCause cause = {}) {
    if (end <= start) return;
    std::vector<Span>& spans = out_.processors[proc].spans;
    if (!spans.empty() && kind != SpanKind::wait && spans.back().kind == kind && spans.back().label == label &&
        spans.back().end == start) {
      spans.back().end = end;
      return;
    }
    spans.push_back({start, end, kind, label, cause});
  }

  uint32_t noc(uint32_t proc) const { return procs_[proc].log->noc; }
  uint32_t core(uint32_t proc) const { return procs_[proc].log->core; }

  // A data mover pays the issue of a transaction: returns when the NoC has it.
  double issue(uint32_t proc, const char* what) {
    Proc& p = procs_[proc];
    noc_.set_now(p.clock);
    add_span(proc, p.clock, p.clock + p_.noc_issue_cycles, SpanKind::mover, label(what));
    p.clock += p_.noc_issue_cycles;
    return p.clock;
  }

  bool holds(const Proc& p, const TimedOp& op) const {
    switch (op.kind) {
      case OpKind::cb_wait: {
        const CbState& cb = cbs_[p.wait_key];
        return cb.pushed - cb.popped >= op.b;
      }
      case OpKind::cb_reserve: {
        const CbState& cb = cbs_[p.wait_key];
        return cb.pages - (cb.pushed - cb.popped) >= op.b;
      }
      case OpKind::sem_wait: {
        const uint32_t v = sems_[p.wait_key].value;
        return op.flag ? v >= op.c : v == op.c;
      }
      default: return true;
    }
  }

  void wake(std::vector<uint32_t>& waiters, double now, const WaitCause& cause) {
    std::vector<uint32_t> still;
    for (uint32_t w : waiters) {
      Proc& p = procs_[w];
      if (!holds(p, p.log->ops[p.pc])) {
        still.push_back(w);
        continue;
      }
      p.blocked = false;
      add_span(w, p.wait_start, now, SpanKind::wait, p.wait_label, cause);
      p.clock = std::max(p.wait_start, now);
      ++p.pc;
      schedule_step(w, p.clock);
    }
    waiters.swap(still);
  }

  void apply(const SemUpdate& u, double now) {
    SemState& s = sems_[u.key];
    s.value = u.set ? u.value : s.value + u.value;
    wake(s.waiters, now, u.cause);
  }

  // Every core of the rectangle: the launch checked each has the region (a CB, a semaphore, or an L1
  // buffer on a core that runs no kernel).
  std::vector<uint32_t> multicast_dests(uint32_t src, Rect r, bool loopback) const {
    std::vector<uint32_t> dests;
    for (uint32_t index = 0; index < kNumCores; ++index) {
      const CoreCoord c = core_at(index);
      if (c.x < r.x0 || c.x > r.x1 || c.y < r.y0 || c.y > r.y1) continue;
      if (index == src && !loopback) continue;
      dests.push_back(index);
    }
    return dests;
  }

  void block(uint32_t proc, uint32_t key, std::vector<uint32_t>& waiters, std::string_view what) {
    Proc& p = procs_[proc];
    p.blocked = true;
    p.wait_key = key;
    p.wait_start = p.clock;
    p.wait_label = label(what);
    waiters.push_back(proc);
  }

  void barrier(uint32_t proc, double done, const WaitCause& cause, const char* what) {
    Proc& p = procs_[proc];
    if (done <= p.clock) return;
    add_span(proc, p.clock, done, SpanKind::wait, label(what), cause);
    p.clock = done;
  }

  // Runs processor `proc` from its clock until it blocks, finishes, or would act after an event
  // still pending (then it is rescheduled at its clock).
  void advance(uint32_t proc) {
    Proc& p = procs_[proc];
    const std::vector<TimedOp>& ops = p.log->ops;
    const uint32_t me = core(proc);
    while (p.pc < ops.size()) {
      const TimedOp& op = ops[p.pc];
      if (interacts(op.kind) && !queue_.empty() && queue_.top().time < p.clock) {
        schedule_step(proc, p.clock);
        return;
      }
      switch (op.kind) {
        case OpKind::compute:
          add_span(proc, p.clock, p.clock + op.cost, SpanKind::compute, label(op.a ? "matmul" : "tile ops"));
          p.clock += op.cost;
          break;
        case OpKind::mover:
          add_span(proc, p.clock, p.clock + op.cost, SpanKind::mover, label("l1 by hand"));
          p.clock += op.cost;
          break;
        case OpKind::cb_push:
        case OpKind::cb_pop: {
          CbState& cb = cbs_[me * kMaxCbId + op.a];
          const WaitCause cause{int32_t(proc), p.clock};
          (op.kind == OpKind::cb_push ? cb.pushed : cb.popped) += op.b;
          (op.kind == OpKind::cb_push ? cb.last_push : cb.last_pop) = cause;
          wake(cb.waiters, p.clock, cause);
          break;
        }
        case OpKind::cb_wait:
        case OpKind::cb_reserve: {
          p.wait_key = me * kMaxCbId + op.a;
          if (holds(p, op)) break;
          CbState& cb = cbs_[p.wait_key];
          block(proc, p.wait_key, cb.waiters,
                fmt::format("{} {}", op.kind == OpKind::cb_wait ? "cb_wait_front" : "cb_reserve_back", cb.name));
          return;
        }
        case OpKind::noc_read: {
          const double issued = p.clock;
          const double done = noc_.read(noc(proc), me, op.a, op.b, op.flag, issue(proc, "noc read"));
          const bool dram = op.a >= kDramEndpoint;
          if (done > p.reads_done) {
            p.reads_done = done;
            p.reads_cause = {int32_t(proc), issued, dram ? PathPart::streaming : PathPart::rounds, true};
          }
          out_.transfers.push_back({proc, issued, done, label(dram ? "dram read" : "l1 read"), op.b});
          break;
        }
        case OpKind::noc_write: {
          const double issued = p.clock;
          const NocModel::Write w = noc_.write(noc(proc), me, op.a, op.b, op.flag, issue(proc, "noc write"));
          const bool dram = op.a >= kDramEndpoint;
          if (w.acked > p.writes_done) {
            p.writes_done = w.acked;
            p.writes_cause = {int32_t(proc), issued, dram ? PathPart::streaming : PathPart::rounds, true};
          }
          out_.transfers.push_back({proc, issued, w.acked, label(dram ? "dram write" : "write"), op.b});
          break;
        }
        case OpKind::noc_mcast: {
          const double issued = p.clock;
          const Rect rect = unpack_rect(op.a);
          const NocModel::Multicast m =
              noc_.multicast(noc(proc), me, rect, multicast_dests(me, rect, op.flag), op.b, issue(proc, "multicast"));
          if (m.acked > p.writes_done) {
            p.writes_done = m.acked;
            p.writes_cause = {int32_t(proc), issued, PathPart::rounds, true};
          }
          out_.transfers.push_back({proc, issued, m.acked, label("multicast"), op.b});
          break;
        }
        case OpKind::read_barrier: barrier(proc, p.reads_done, p.reads_cause, "read barrier"); break;
        case OpKind::write_barrier: barrier(proc, p.writes_done, p.writes_cause, "write barrier"); break;
        case OpKind::sem_inc: {
          const double issued = p.clock;
          const NocModel::Write w = noc_.write(noc(proc), me, op.a, 4, false, issue(proc, "semaphore inc"));
          schedule_update({op.a * kSemaphoresPerCore + op.b, false, op.c,
                           {int32_t(proc), issued, PathPart::rounds, true}},
                          w.landed);
          out_.transfers.push_back({proc, issued, w.landed, label("semaphore inc"), 4});
          break;
        }
        case OpKind::sem_set: {
          SemState& s = sems_[me * kSemaphoresPerCore + op.b];
          s.value = op.c;
          wake(s.waiters, p.clock, {int32_t(proc), p.clock});
          break;
        }
        case OpKind::sem_mcast: {
          const double issued = p.clock;
          const Rect rect = unpack_rect(op.a);
          const std::vector<uint32_t> dests = multicast_dests(me, rect, false);
          const NocModel::Multicast m = noc_.multicast(noc(proc), me, rect, dests, 4, issue(proc, "semaphore multicast"));
          for (std::size_t i = 0; i < dests.size(); ++i) {
            schedule_update({dests[i] * kSemaphoresPerCore + op.b, true, op.c,
                             {int32_t(proc), issued, PathPart::rounds, true}},
                            m.landed[i]);
          }
          out_.transfers.push_back({proc, issued, m.acked, label("semaphore multicast"), 4});
          break;
        }
        case OpKind::sem_wait: {
          p.wait_key = me * kSemaphoresPerCore + op.b;
          if (holds(p, op)) break;
          SemState& s = sems_[p.wait_key];
          block(proc, p.wait_key, s.waiters, fmt::format("wait {}", s.name));
          return;
        }
        case OpKind::zone_begin:
          p.zone_stack.push_back(out_.zones.size());
          out_.zones.push_back({op.a, proc, uint32_t(p.zone_stack.size() - 1), p.clock, p.clock});
          break;
        case OpKind::zone_end:
          if (!p.zone_stack.empty()) {
            out_.zones[p.zone_stack.back()].end = p.clock;
            p.zone_stack.pop_back();
          }
          break;
        case OpKind::zone_data:
          if (!p.zone_stack.empty()) {
            Zone& z = out_.zones[p.zone_stack.back()];
            z.tagged = true, z.tag_name = op.a, z.tag = uint64_t(op.b) | uint64_t(op.c) << 32;
          }
          break;
      }
      ++p.pc;
    }
    // a kernel that returns has its transfers delivered first
    barrier(proc, p.reads_done, p.reads_cause, "read barrier");
    barrier(proc, p.writes_done, p.writes_cause, "write barrier");
    p.done = true;
    out_.processors[proc].end = p.clock;
  }

  const TimingParams& p_;
  NocModel noc_;
  std::vector<CbState> cbs_;
  std::vector<SemState> sems_;
  std::vector<Proc> procs_;
  std::vector<SemUpdate> updates_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue_;
  uint64_t seq_ = 0;
  std::map<std::string, uint32_t, std::less<>> label_ids_;
  TimingResult out_;
};

}  // namespace

double TimingResult::busy(uint32_t proc, double from, double to) const {
  double total = 0;
  for (const Span& s : processors.at(proc).spans) {
    if (s.kind == SpanKind::wait || s.end <= from || s.start >= to) continue;
    total += std::min(s.end, to) - std::max(s.start, from);
  }
  return total;
}

PathBreakdown TimingResult::critical_path(uint32_t proc, double end, double start) const {
  double cycles[kPathParts] = {};
  auto add = [&](PathPart part, double from, double to) {
    if (to > from) cycles[int(part)] += to - std::max(from, start);
  };
  double t = end;
  uint32_t p = proc;
  // handoffs at one instant move between processors without moving in time; a long chain of them
  // cannot be a path, so it ends the walk
  int jumps_in_place = 0;
  while (t > start && jumps_in_place < 1000) {
    const std::vector<Span>& spans = processors[p].spans;
    auto it = std::lower_bound(spans.begin(), spans.end(), t, [](const Span& s, double v) { return s.start < v; });
    if (it == spans.begin()) {
      add(PathPart::waits, start, t);
      t = start;
      break;
    }
    const Span& s = *--it;
    if (s.end < t) {  // idle between two spans: nothing to wait for was recorded
      add(PathPart::waits, s.end, t);
      t = s.end;
      continue;
    }
    const double before = t;
    if (s.kind == SpanKind::compute) {
      add(PathPart::fpu, s.start, t);
      t = s.start;
    } else if (s.kind == SpanKind::mover) {
      add(PathPart::movers, s.start, t);
      t = s.start;
    } else if (s.cause.proc < 0) {
      add(PathPart::waits, s.start, t);
      t = s.start;
    } else {
      add(s.cause.is_transfer ? s.cause.transfer : PathPart::waits, s.cause.time, t);
      t = std::min(t, s.cause.time);
      p = uint32_t(s.cause.proc);
    }
    jumps_in_place = t == before ? jumps_in_place + 1 : 0;
  }
  if (t > start) cycles[int(PathPart::waits)] += t - start;
  PathBreakdown out;
  for (int i = 0; i < kPathParts; ++i) out.seconds[i] = cycles[i] / hz;
  return out;
}

TimingResult model_timing(const TimingLog& log, const Program& program, const TimingParams& params) {
  return Replay(log, program, params).run();
}

}  // namespace ditmk::tt::emu
