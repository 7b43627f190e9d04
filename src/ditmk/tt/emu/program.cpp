#include "ditmk/tt/emu/program.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/emu/fault.hpp"

namespace ditmk::tt::emu {

std::string core_name(CoreCoord core) { return fmt::format("({},{})", core.x, core.y); }

std::string_view processor_name(Processor processor) {
  switch (processor) {
    case Processor::ncrisc: return "NCRISC";
    case Processor::brisc: return "BRISC";
    case Processor::trisc: return "TRISC";
  }
  return "?";
}

std::string_view fault_kind_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::deadlock: return "deadlock";
    case FaultKind::cb_overflow: return "cb_overflow";
    case FaultKind::cb_underflow: return "cb_underflow";
    case FaultKind::unwritten_read: return "unwritten_read";
    case FaultKind::out_of_bounds: return "out_of_bounds";
    case FaultKind::multicast_target: return "multicast_target";
    case FaultKind::missing_arg: return "missing_arg";
    case FaultKind::bad_call: return "bad_call";
    case FaultKind::kernel_signal: return "kernel_signal";
    case FaultKind::no_progress: return "no_progress";
  }
  return "?";
}

std::string to_string(const Fault& fault) {
  std::string text = fmt::format("{}: {}{}{}", fault_kind_name(fault.kind), fault.where,
                                 fault.where.empty() ? "" : ": ", fault.message);
  for (const std::string& waiter : fault.waiters) text += "\n  " + waiter;
  return text;
}

std::string_view integer_format_name(IntegerFormat format) {
  switch (format) {
    case IntegerFormat::int32: return "Int32";
    case IntegerFormat::uint32: return "UInt32";
    case IntegerFormat::uint16: return "UInt16";
    case IntegerFormat::uint8: return "UInt8";
    case IntegerFormat::none: break;
  }
  return "none";
}

uint32_t integer_tile_bytes(IntegerFormat format) {
  switch (format) {
    case IntegerFormat::uint16: return 2048;
    case IntegerFormat::uint8: return 1024;
    default: return 4096;
  }
}

uint32_t cb_tile_bytes(const CbConfig& cb) {
  return cb.integer == IntegerFormat::none ? uint32_t(tile_bytes(cb.format)) : integer_tile_bytes(cb.integer);
}

namespace {

struct Span {
  uint32_t begin, end;
  std::string what;
  uint32_t share_group = 0;  // spans of one CB's buffer indices (CbConfig::share_group) coincide
};

void require_no_overlap(std::vector<Span> spans, CoreCoord core) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < spans.size(); ++i) {
    const Span& a = spans[i - 1];
    const Span& b = spans[i];
    if (a.share_group != 0 && a.share_group == b.share_group && a.begin == b.begin && a.end == b.end) continue;
    require(spans[i].begin >= spans[i - 1].end, "program: {} [{:#x}, {:#x}) overlaps {} on core {}",
            spans[i].what, spans[i].begin, spans[i].end, spans[i - 1].what, core_name(core));
  }
}

}  // namespace

void validate(const Program& program) {
  require(!program.kernels.empty(), "program '{}': no kernel", program.name);
  require(!program.cores.empty(), "program '{}': no cores", program.name);
  std::set<CoreCoord> on_program;
  for (CoreCoord core : program.cores) {
    require(on_grid(core), "program: core {} is off the {}x{} grid", core_name(core), kGridX, kGridY);
    require(on_program.insert(core).second, "program: core {} listed twice", core_name(core));
  }
  for (const CbConfig& cb : program.cbs) {
    require(cb.id < kMaxCbId, "CB '{}': id {} is not below {}", cb.name, cb.id, kMaxCbId);
    require(cb.page_bytes > 0 && cb.total_bytes > 0 && cb.total_bytes % cb.page_bytes == 0,
            "CB '{}': total {} B is not a positive multiple of its page {} B", cb.name,
            cb.total_bytes, cb.page_bytes);
    require(uint64_t(cb.address) + cb.total_bytes <= kL1Bytes,
            "CB '{}': [{:#x}, +{}) runs past the {} B of L1", cb.name, cb.address, cb.total_bytes,
            kL1Bytes);
    require(!cb.cores.empty(), "CB '{}': no cores", cb.name);
    for (CoreCoord core : cb.cores) {
      require(on_program.count(core) == 1, "CB '{}': core {} does not run the program", cb.name,
              core_name(core));
    }
  }
  for (const ScratchRegion& region : program.scratch_regions) {
    require(region.bytes > 0 && uint64_t(region.address) + region.bytes <= kL1Bytes,
            "scratchpad '{}': [{:#x}, +{}) is empty or runs past the {} B of L1", region.name, region.address,
            region.bytes, kL1Bytes);
    for (CoreCoord core : region.cores) {
      require(on_program.count(core) == 1, "scratchpad '{}': core {} does not run the program", region.name,
              core_name(core));
    }
  }
  std::set<uint32_t> semaphore_ids;
  for (const SemaphoreConfig& sem : program.semaphores) {
    require(sem.id < kSemaphoresPerCore, "semaphore '{}': id {} is not below {}", sem.name, sem.id,
            kSemaphoresPerCore);
    require(semaphore_ids.insert(sem.id).second, "semaphore '{}': id {} used twice", sem.name, sem.id);
    require(sem.address % 4 == 0 && uint64_t(sem.address) + kSemaphoreBytes <= kL1Bytes,
            "semaphore '{}': address {:#x} is unaligned or outside L1", sem.name, sem.address);
  }
  for (CoreCoord core : program.cores) {
    std::vector<Span> spans;
    std::set<uint32_t> ids;
    for (const CbConfig& cb : program.cbs) {
      if (!cb.cores.count(core)) continue;
      require(ids.insert(cb.id).second, "CB '{}': id {} used twice on core {}", cb.name, cb.id,
              core_name(core));
      spans.push_back({cb.address, cb.address + cb.total_bytes, "CB '" + cb.name + "'", cb.share_group});
    }
    for (const SemaphoreConfig& sem : program.semaphores) {
      spans.push_back({sem.address, sem.address + kSemaphoreBytes, "semaphore '" + sem.name + "'"});
    }
    for (const ScratchRegion& region : program.scratch_regions) {
      if (region.cores.count(core)) spans.push_back({region.address, region.address + region.bytes, "scratchpad '" + region.name + "'"});
    }
    require_no_overlap(std::move(spans), core);
  }
  std::set<std::pair<CoreCoord, Processor>> bound;
  for (const KernelBinding& kernel : program.kernels) {
    const std::string name = kernel.source.empty() ? "the kernel" : "kernel " + kernel.source;
    require(bool(kernel.body), "program '{}': {} has no body", program.name, name);
    require(!kernel.processors.empty(), "program '{}': {} runs on no processor", program.name, name);
    for (CoreCoord core : kernel.cores) {
      require(on_program.count(core) == 1, "{}: core {} does not run the program", name, core_name(core));
      for (Processor processor : kernel.processors) {
        require(bound.insert({core, processor}).second, "{}: core {} {} already runs another kernel", name,
                core_name(core), processor_name(processor));
      }
    }
    for (const RoleFlag& flag : kernel.role_flags) {
      require(kernel.named_args.count(flag.name) == 0, "role flag '{}' is also a named compile-time arg",
              flag.name);
    }
    for (const auto& [core, args] : kernel.core_args) {
      require(kernel.cores.count(core) == 1, "{}: runtime args for core {}, which does not run it", name,
              core_name(core));
    }
  }
}

KernelBinding& add_unified_kernel(Program& program, Kernel body) {
  KernelBinding& kernel = program.kernels.emplace_back();
  kernel.cores = {program.cores.begin(), program.cores.end()};
  kernel.processors = {Processor::ncrisc, Processor::brisc, Processor::trisc};
  kernel.body = std::move(body);
  return kernel;
}

}  // namespace ditmk::tt::emu
