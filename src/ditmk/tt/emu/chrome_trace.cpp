#include "ditmk/tt/emu/chrome_trace.hpp"

#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ditmk::tt::emu {

namespace {

std::string_view span_category(SpanKind kind) {
  switch (kind) {
    case SpanKind::compute: return "compute";
    case SpanKind::mover: return "mover";
    case SpanKind::wait: return "wait";
  }
  return "?";
}

// Names go through the JSON library's escaping; times are microseconds.
std::string json_string(std::string_view text) { return nlohmann::json(text).dump(); }

}  // namespace

void write_chrome_trace(const TimingResult& t, std::ostream& out) {
  const double us = 1e6 / t.hz;
  bool first = true;
  auto event = [&](const std::string& body) {
    out << (first ? "\n" : ",\n") << body;
    first = false;
  };
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  std::set<uint32_t> cores;
  for (const ProcessorTimeline& p : t.processors) cores.insert(p.core);
  for (uint32_t core : cores) {
    event(fmt::format("{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{},\"args\":{{\"name\":{}}}}}", core,
                      json_string(fmt::format("core {}", core_name(core_at(core))))));
    event(fmt::format("{{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":{},\"args\":{{\"sort_index\":{}}}}}",
                      core, core));
  }
  for (const ProcessorTimeline& p : t.processors) {
    const int tid = int(p.processor);
    const std::string_view name = processor_name(p.processor);
    event(fmt::format("{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":{}}}}}", p.core,
                      tid, json_string(name)));
    event(fmt::format("{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":{}}}}}", p.core,
                      kZoneTrackOffset + tid, json_string(fmt::format("{} zones", name))));
    for (const Span& s : p.spans) {
      event(fmt::format("{{\"ph\":\"X\",\"cat\":\"{}\",\"name\":{},\"pid\":{},\"tid\":{},\"ts\":{:.4f},\"dur\":{:.4f}}}",
                        span_category(s.kind), json_string(t.labels[s.label]), p.core, tid, s.start * us,
                        (s.end - s.start) * us));
    }
  }
  for (const Zone& z : t.zones) {
    const ProcessorTimeline& p = t.processors[z.proc];
    // a tagged zone shows its DeviceTimestampedData record: "blk [block:0x300000005]"
    const std::string name = z.tagged ? fmt::format("{} [{}:{:#x}]", t.zone_names[z.name], t.zone_names[z.tag_name], z.tag)
                                      : t.zone_names[z.name];
    event(fmt::format("{{\"ph\":\"X\",\"cat\":\"zone\",\"name\":{},\"pid\":{},\"tid\":{},\"ts\":{:.4f},\"dur\":{:.4f}}}",
                      json_string(name), p.core, kZoneTrackOffset + int(p.processor), z.start * us,
                      (z.end - z.start) * us));
  }
  for (std::size_t i = 0; i < t.transfers.size(); ++i) {
    const Transfer& x = t.transfers[i];
    const ProcessorTimeline& p = t.processors[x.proc];
    const std::string common = fmt::format("\"cat\":\"noc\",\"name\":{},\"id\":{},\"pid\":{},\"tid\":{}",
                                           json_string(t.labels[x.label]), i, p.core, int(p.processor));
    event(fmt::format("{{\"ph\":\"b\",{},\"ts\":{:.4f},\"args\":{{\"bytes\":{}}}}}", common, x.start * us, x.bytes));
    event(fmt::format("{{\"ph\":\"e\",{},\"ts\":{:.4f}}}", common, x.end * us));
  }
  out << "\n]}\n";
}

}  // namespace ditmk::tt::emu
