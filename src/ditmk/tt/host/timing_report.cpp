#include "ditmk/tt/host/timing_report.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/host/emu_report.hpp"
#include "ditmk/tt/kernel/zone_tags.hpp"
#include "ditmk/tt/plan/core_map.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt::host {

namespace {

using emu::TimingResult;
using emu::Zone;

std::string block_kind(const ArenaLayout& layout, int b) {
  if (!layout.is_cross(b)) return "self";
  return "cross_" + std::string(model::key_set_name(layout.keys_of(b).keys));
}

// The latest end of the zones called `name` with the kernel's tag `tag` (kernel/zone_tags.hpp),
// and the processor it ended on.
struct ZoneEnd {
  double end = -1;
  uint32_t proc = 0;
};
ZoneEnd last_end(const TimingResult& t, const std::string& name, uint64_t tag) {
  ZoneEnd out;
  for (const Zone& z : t.zones) {
    if (z.tagged && z.tag == tag && t.zone_names[z.name] == name && z.end > out.end) out = {z.end, z.proc};
  }
  return out;
}

std::string core_role(emu::CoreCoord c, const CoreMap& map) {
  const Core core{int(c.x), int(c.y)};
  if (!map.spare.empty() && core == map.hub2) return "hub2";
  return std::string(role_name(map.role_of(core)));
}

// Blocks of one launch: each ends when its last processor leaves it and starts where the previous
// block (or the step's encoder, or the launch) ended.
void add_blocks(TimingSummary& out, const EmuResult& r, const TimingResult& t, const std::vector<BlockRow>& rows) {
  const ArenaLayout& layout = r.layout;
  const int steps = layout.variant == Variant::steps4 ? kSteps : 1;
  for (int s = 0; s < steps; ++s) {
    const int step = layout.variant == Variant::steps4 ? s : -1;
    for (int b = 0; b < layout.n_blocks; ++b) {
      // block and step programs name their step by the step index they were built for
      ZoneEnd end;
      int found = step;
      for (int candidate = 0; candidate < kSteps && end.end < 0; ++candidate) {
        if (step >= 0 && candidate != step) continue;
        end = last_end(t, "blk", kernel::block_tag(uint32_t(candidate), uint32_t(b)));
        found = candidate;
      }
      require(end.end >= 0, "timing: the launch has no zone for block {}", b);
      double start = 0;
      if (b > 0) {
        start = last_end(t, "blk", kernel::block_tag(uint32_t(found), uint32_t(b - 1))).end;
      } else if (step >= 0) {
        start = last_end(t, "encoder", uint64_t(step)).end;
      }
      BlockTiming bt;
      bt.step = found;
      bt.index = b;
      bt.kind = block_kind(layout, b);
      bt.seconds = t.seconds(end.end - start);
      bt.dram_bound_seconds = rows.at(std::size_t(b)).dram_bound_seconds;
      bt.breakdown = t.critical_path(end.proc, end.end, start);
      out.blocks.push_back(bt);
    }
  }
}

// The phase a zone sits in on its processor: the innermost enclosing zone that is not a round.
std::string enclosing_phase(const TimingResult& t, std::size_t zone_index) {
  const Zone& z = t.zones[zone_index];
  for (std::size_t i = zone_index; i-- > 0;) {
    const Zone& o = t.zones[i];
    if (o.proc != z.proc || o.depth + 1 != z.depth) continue;
    if (o.start <= z.start && o.end >= z.end) return t.zone_names[o.name];
  }
  return "";
}

// A round starts once its last producer starts writing and the round before it (on either hub)
// has arrived everywhere; it ends when its last receiver holds the data.
void add_rounds(std::map<std::string, std::vector<double>>& by_phase, const TimingResult& t) {
  // rounds by their tag (hub, round of that hub)
  std::map<uint64_t, double> gather_start, round_end;
  std::map<uint64_t, std::string> phase_of;
  for (std::size_t i = 0; i < t.zones.size(); ++i) {
    const Zone& z = t.zones[i];
    if (!z.tagged || t.zone_names[z.tag_name] != DIT_ROUND_RECORD) continue;
    const std::string& name = t.zone_names[z.name];
    const uint64_t id = z.tag;
    if (name == "gather") {
      gather_start[id] = std::max(gather_start.count(id) ? gather_start[id] : 0.0, z.start);
    } else if (name == "round") {
      round_end[id] = std::max(round_end.count(id) ? round_end[id] : 0.0, z.end);
      if (!phase_of.count(id)) phase_of[id] = enclosing_phase(t, i);
    }
  }
  std::vector<std::pair<double, uint64_t>> by_end;
  for (const auto& [id, end] : round_end) by_end.push_back({end, id});
  std::sort(by_end.begin(), by_end.end());
  double previous = 0;
  for (const auto& [end, id] : by_end) {
    auto gather = gather_start.find(id);
    if (gather != gather_start.end() && gather->second <= end) {
      by_phase[phase_of[id]].push_back(t.seconds(end - std::max(gather->second, previous)));
    }
    previous = end;
  }
}

double qkv_busy(const TimingResult& t, int& zones) {
  double total = 0;
  for (const Zone& z : t.zones) {
    if (t.zone_names[z.name] != "qkv" || t.processors[z.proc].processor != emu::Processor::trisc) continue;
    total += t.busy(z.proc, z.start, z.end);
    ++zones;
  }
  return total;
}

}  // namespace

TimingSummary summarize_timing(const EmuResult& r) {
  require(!r.launches.empty() && r.launches.front().report.timing, "timing: the run was not timed");
  TimingSummary out;
  out.protocol = r.protocol;
  const std::vector<BlockRow> rows = block_table(r);
  std::map<std::string, std::vector<double>> rounds;
  int qkv_zones = 0;
  double qkv_total = 0;
  // steps4 repeats its one launch; the step variant's launches are the 4 steps
  const bool per_step_launches = r.layout.variant == Variant::step;
  const std::size_t launches = per_step_launches ? r.launches.size() : 1;
  for (std::size_t l = 0; l < launches; ++l) {
    const TimingResult& t = *r.launches[l].report.timing;
    add_blocks(out, r, t, rows);
    add_rounds(rounds, t);
    qkv_total += qkv_busy(t, qkv_zones);
    out.launch_seconds += t.seconds(t.end);
  }
  double block_total = 0;
  for (const BlockTiming& b : out.blocks) block_total += b.seconds;
  out.seconds_per_block = out.blocks.empty() ? 0 : block_total / double(out.blocks.size());
  if (r.layout.variant == Variant::steps4) {
    out.seconds_per_denoise = out.launch_seconds;
    out.seconds_per_step = out.launch_seconds / kSteps;
  } else if (per_step_launches) {
    out.seconds_per_step = out.launch_seconds / double(launches);
  }
  if (qkv_zones > 0) {
    const TimingResult& t = *r.launches.front().report.timing;
    out.qkv_matmul_seconds = t.seconds(qkv_total / qkv_zones);
  }
  for (const auto& [phase, values] : rounds) {
    RoundStats s{phase, int(values.size()), *std::min_element(values.begin(), values.end()), 0,
                 *std::max_element(values.begin(), values.end())};
    for (double v : values) s.mean_seconds += v / double(values.size());
    out.rounds.push_back(s);
  }
  const TimingResult& first = *r.launches.front().report.timing;
  const CoreMap map = blackhole_core_map();
  std::map<uint32_t, CoreBusy> cores;
  for (std::size_t p = 0; p < first.processors.size(); ++p) {
    const emu::ProcessorTimeline& tl = first.processors[p];
    CoreBusy& c = cores[tl.core];
    c.core = emu::core_at(tl.core);
    c.role = core_role(c.core, map);
    c.busy[int(tl.processor)] = first.end > 0 ? first.busy(uint32_t(p), 0, first.end) / first.end : 0;
  }
  for (const auto& [index, c] : cores) out.cores.push_back(c);
  return out;
}

nlohmann::json to_json(const TimingSummary& s) {
  nlohmann::json blocks = nlohmann::json::array();
  for (const BlockTiming& b : s.blocks) {
    nlohmann::json breakdown = nlohmann::json::object();
    for (int i = 0; i < emu::kPathParts; ++i)
      breakdown[std::string(emu::path_part_name(emu::PathPart(i))) + "_us"] = b.breakdown.seconds[i] * 1e6;
    blocks.push_back({{"index", b.index},
                      {"step", b.step},
                      {"kind", b.kind},
                      {"us", b.seconds * 1e6},
                      {"dram_lower_bound_us", b.dram_bound_seconds * 1e6},
                      {"breakdown", breakdown}});
  }
  nlohmann::json rounds = nlohmann::json::object();
  for (const RoundStats& r : s.rounds) {
    rounds[r.phase] = {{"count", r.count},
                       {"min_us", r.min_seconds * 1e6},
                       {"mean_us", r.mean_seconds * 1e6},
                       {"max_us", r.max_seconds * 1e6}};
  }
  nlohmann::json cores = nlohmann::json::array();
  for (const CoreBusy& c : s.cores) {
    cores.push_back({{"core", {c.core.x, c.core.y}},
                     {"role", c.role},
                     {"busy", {{"ncrisc", c.busy[0]}, {"brisc", c.busy[1]}, {"trisc", c.busy[2]}}}});
  }
  nlohmann::json out = {{"protocol", protocol_name(s.protocol)},
                        {"us_per_block", s.seconds_per_block * 1e6},
                        {"blocks", blocks},
                        {"launch_us", s.launch_seconds * 1e6},
                        {"qkv_matmul_us", s.qkv_matmul_seconds * 1e6},
                        {"rounds", rounds},
                        {"cores", cores}};
  nlohmann::json params = nlohmann::json::array();
  for (const emu::TimingParamRow& row : emu::timing_param_table()) {
    params.push_back({{"name", row.name}, {"value", row.value}, {"unit", row.unit}, {"source", row.source}});
  }
  out["params"] = params;
  if (s.seconds_per_step) out["us_per_step"] = *s.seconds_per_step * 1e6;
  if (s.seconds_per_denoise) out["us_per_denoise"] = *s.seconds_per_denoise * 1e6;
  return out;
}

std::string timing_text(const TimingSummary& s) {
  std::string out = fmt::format("timing ({} protocol): {:.1f} us per block", protocol_name(s.protocol),
                                s.seconds_per_block * 1e6);
  if (s.seconds_per_step) out += fmt::format(", {:.1f} us per step", *s.seconds_per_step * 1e6);
  if (s.seconds_per_denoise) out += fmt::format(", {:.1f} us per denoise", *s.seconds_per_denoise * 1e6);
  out += "\n  step blk kind         us  dram-bound  | critical path us: streaming fpu rounds movers waits\n";
  for (const BlockTiming& b : s.blocks) {
    const auto& p = b.breakdown.seconds;
    out += fmt::format("  {:>4} {:>3} {:<11} {:>6.1f} {:>8.1f}    | {:>6.1f} {:>6.1f} {:>6.1f} {:>6.1f} {:>6.1f}\n", b.step,
                       b.index, b.kind, b.seconds * 1e6, b.dram_bound_seconds * 1e6, p[int(emu::PathPart::streaming)] * 1e6,
                       p[int(emu::PathPart::fpu)] * 1e6, p[int(emu::PathPart::rounds)] * 1e6,
                       p[int(emu::PathPart::movers)] * 1e6, p[int(emu::PathPart::waits)] * 1e6);
  }
  out += fmt::format("  QKV matmul on a compute core {:.2f} us\n", s.qkv_matmul_seconds * 1e6);
  for (const RoundStats& r : s.rounds) {
    out += fmt::format("  rounds in {:<9} x{:<4} {:.2f} / {:.2f} / {:.2f} us (min / mean / max)\n", r.phase, r.count,
                       r.min_seconds * 1e6, r.mean_seconds * 1e6, r.max_seconds * 1e6);
  }
  double busy[3] = {};
  int compute = 0;
  for (const CoreBusy& c : s.cores) {
    if (c.role != "compute") continue;
    ++compute;
    for (int i = 0; i < 3; ++i) busy[i] += c.busy[i];
  }
  if (compute > 0) {
    out += fmt::format("  compute cores busy (mean): NCRISC {:.0f} %, BRISC {:.0f} %, TRISC {:.0f} %\n",
                       100 * busy[0] / compute, 100 * busy[1] / compute, 100 * busy[2] / compute);
  }
  return out;
}

}  // namespace ditmk::tt::host
