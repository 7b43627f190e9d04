#include "ditmk/tt/emu/device.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <map>
#include <set>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/emu/l1_window.hpp"
#include "ditmk/tt/emu/launch_state.hpp"
#include "ditmk/tt/emu/profiler_api.hpp"

namespace ditmk::tt::emu {

namespace {

thread_local ChipState* running_chip = nullptr;
thread_local ProcessorRuntime* running_processor = nullptr;

// Kernel code runs on the fibers' stacks; tile scratch lives on the heap, so this is ample.
constexpr std::size_t kFiberStackBytes = 256 * 1024;

const CbConfig& find_cb(const Program& program, CoreCoord core, std::string_view name) {
  for (const CbConfig& cb : program.cbs) {
    if (cb.name == name && cb.cores.count(core)) return cb;
  }
  fail("no CB '{}' on core {} in program '{}'", name, core_name(core), program.name);
}

void reset_for_launch(ChipState& chip) {
  const Program& program = *chip.program;
  chip.counters = Counters{};
  chip.timing_log = TimingLog{};
  chip.warnings.clear();
  for (CoreCoord coord : program.cores) {
    const uint32_t index = core_index(coord);
    CoreRuntime& core = chip.cores[index];
    CoreMemory& memory = chip.memory[index];
    for (CbRuntime& cb : core.cb_storage) {
      const CbConfig& config = *cb.config;
      cb = CbRuntime{&config, config.total_bytes / config.page_bytes};
      if (!config.tensor_backed) memory.written.clear(config.address, config.total_bytes);
    }
    // a scratchpad starts each launch uninitialised
    for (const ScratchRegion& region : program.scratch_regions) {
      if (region.cores.count(coord)) memory.written.clear(region.address, region.bytes);
    }
    for (const SemaphoreConfig& sem : program.semaphores) {
      std::memcpy(memory.l1 + sem.address, &sem.initial_value, sizeof(uint32_t));
      memory.written.clear(sem.address, kSemaphoreBytes);
      memory.written.mark(sem.address, sizeof(uint32_t));
    }
  }
}

// One fiber per bound processor, core by core (so that consecutive resumes mostly stay on one core's
// L1 window), each core's processors in NCRISC, BRISC, TRISC order.
void start_processors(ChipState& chip) {
  chip.processors.clear();
  chip.inbound_pending.assign(kNumCores, 0);
  const Program& program = *chip.program;
  std::map<CoreCoord, std::array<const KernelBinding*, 3>> bound;
  for (const KernelBinding& kernel : program.kernels) {
    for (CoreCoord coord : kernel.cores) {
      for (Processor processor : kernel.processors) bound[coord][uint32_t(processor)] = &kernel;
    }
  }
  if (chip.timing) chip.timing_log.processors.reserve(program.cores.size() * 3);
  for (CoreCoord coord : program.cores) {
    for (Processor processor : {Processor::ncrisc, Processor::brisc, Processor::trisc}) {
      const KernelBinding* kernel = bound[coord][uint32_t(processor)];
      if (!kernel) continue;
      auto p = std::make_unique<ProcessorRuntime>();
      p->core = &chip.cores[core_index(coord)];
      p->processor = processor;
      p->kernel = kernel;
      auto args = kernel->core_args.find(coord);
      if (args != kernel->core_args.end()) p->args = &args->second;
      p->noc = kernel->noc.value_or(noc_of(processor));
      p->activity.guarded = kernel->l1_pointers;  // set for exactly the compiled dialect kernels
      if (chip.timing) {
        chip.timing_log.processors.push_back({core_index(coord), processor, p->noc, {}});
        p->log = &chip.timing_log.processors.back();
      }
      ProcessorRuntime* self = p.get();
      p->fiber = std::make_unique<Fiber>(
          [self] {
            try {
              self->kernel->body();
              for (PendingTransfer& t : self->reads) deliver(t);
              for (PendingTransfer& t : self->writes) deliver(t);
            } catch (const FaultRaised& raised) {
              self->fault = raised.fault();
            } catch (const LaunchCancelled&) {
            } catch (const std::exception& e) {
              self->fault = Fault{FaultKind::bad_call, self->where(), e.what(), {}};
            }
          },
          kFiberStackBytes);
      chip.processors.push_back(std::move(p));
    }
  }
}

Fault deadlock_fault(const ChipState& chip) {
  Fault fault{FaultKind::deadlock, "", "", {}};
  for (const auto& p : chip.processors) {
    if (p->fiber->finished()) continue;
    fault.waiters.push_back(fmt::format("{} waits in {}", p->where(), p->waiting_on()));
  }
  fault.message = fmt::format("all {} unfinished processors are blocked and none can proceed",
                              fault.waiters.size());
  return fault;
}

// Round-robin over the processors: each runs until it blocks; one whose wait does not hold yet is
// skipped. A pass in which nobody could run, with someone unfinished, is a deadlock.
std::optional<Fault> schedule(ChipState& chip, KernelGuard& guard) {
  while (true) {
    bool ran = false, unfinished = false;
    for (auto& p : chip.processors) {
      if (p->fiber->finished()) continue;
      unfinished = true;
      if (p->ready && !p->ready()) continue;
      if (p->kernel->l1_pointers) chip.l1.show(core_index(p->core->coord));
      set_current(&chip, p.get());
      const std::optional<KernelStop> stop = guard.resume(*p->fiber, p->activity);
      set_current(nullptr, nullptr);
      ran = true;
      if (stop) {
        const FaultKind kind = stop->signal ? FaultKind::kernel_signal : FaultKind::no_progress;
        return Fault{kind, p->where(), describe(*stop, chip.watchdog_seconds), {}};
      }
      if (p->fault) return p->fault;
    }
    if (!unfinished) return std::nullopt;
    if (!ran) return deadlock_fault(chip);
  }
}

// Unwinds every blocked fiber so the objects on its stack are destroyed (guarded too: a kernel's
// destructor may fault; that fiber is then abandoned, the launch's fault already chosen).
void cancel_all(ChipState& chip, KernelGuard& guard) {
  for (auto& p : chip.processors) {
    if (!p->fiber->started() || p->fiber->finished()) continue;
    p->cancel = true;
    if (p->kernel->l1_pointers) chip.l1.show(core_index(p->core->coord));
    set_current(&chip, p.get());
    guard.resume(*p->fiber, p->activity);
    set_current(nullptr, nullptr);
  }
}

void collect_high_water(ChipState& chip) {
  const Program& program = *chip.program;
  for (const CbConfig& config : program.cbs) {
    CbHighWater entry{config.name, config.id, 0, config.total_bytes, *config.cores.begin()};
    for (CoreCoord coord : config.cores) {
      const CbRuntime* cb = chip.cores[core_index(coord)].cbs[config.id];
      const uint32_t used = cb->high_water_pages * config.page_bytes;
      if (used > entry.used_bytes) {
        entry.used_bytes = used;
        entry.core = coord;
      }
    }
    chip.counters.cb_high_water.push_back(entry);
  }
}

}  // namespace

ChipState& chip() { return *running_chip; }

DeviceZone::DeviceZone(std::string_view name) {
  if (!running_processor || !running_processor->log) return;
  running_processor->log->ops.push_back({OpKind::zone_begin, false, running_chip->timing_log.zone_id(name)});
  open_ = true;
}

DeviceZone::~DeviceZone() {
  if (open_ && running_processor && running_processor->log) running_processor->log->ops.push_back({OpKind::zone_end});
}

void zone_data(std::string_view name, uint64_t data) {
  if (!running_processor || !running_processor->log) return;
  running_processor->log->ops.push_back(
      {OpKind::zone_data, false, running_chip->timing_log.zone_id(name), uint32_t(data), uint32_t(data >> 32)});
}
ProcessorRuntime& current() { return *running_processor; }

uint32_t kernel_l1_address(uint32_t offset) { return running_chip->l1.window_base() + offset; }
uint32_t l1_offset(uint32_t address) {
  const uint32_t base = running_chip->l1.window_base();
  return base && address >= base && address - base < kL1Bytes ? address - base : address;
}
void set_current(ChipState* chip, ProcessorRuntime* processor) {
  running_chip = chip;
  running_processor = processor;
}

void wait_until(std::function<bool()> ready, std::function<std::string()> waiting_on) {
  ProcessorRuntime& self = current();
  if (ready()) return;
  self.ready = std::move(ready);
  self.waiting_on = std::move(waiting_on);
  Fiber::yield();
  self.ready = nullptr;
  self.waiting_on = nullptr;
  if (self.cancel) throw LaunchCancelled{};
}

const Region* CoreRuntime::find(uint32_t address, uint32_t size) const {
  auto it = std::upper_bound(regions.begin(), regions.end(), address,
                             [](uint32_t a, const Region& r) { return a < r.begin; });
  if (it == regions.begin()) return nullptr;
  --it;
  return uint64_t(address) + size <= it->end ? &*it : nullptr;
}

const Region& local_region(uint32_t address, uint32_t size, std::string_view what) {
  const CoreRuntime& core = *current().core;
  const Region* region = core.find(address, size);
  if (!region) {
    raise(FaultKind::out_of_bounds, "{}: L1 [{:#x}, {:#x}) lies outside every CB, semaphore and L1 buffer of core {}",
          what, address, uint64_t(address) + size, core_name(core.coord));
  }
  return *region;
}

std::byte* l1_bytes(uint32_t core_index, uint32_t address) {
  return chip().memory[core_index].l1 + address;
}

void require_written_l1(uint32_t index, uint32_t address, uint32_t size, std::string_view what) {
  WrittenMap& written = chip().memory[index].written;
  // A scratchpad is filled through pointers (Scratchpad::operator[], stores at its base address),
  // which the emulator cannot see: its bytes count as written when something reads them.
  for (const ScratchRegion& region : chip().program->scratch_regions) {
    if (region.cores.count(core_at(index)) && address >= region.address &&
        uint64_t(address) + size <= uint64_t(region.address) + region.bytes) {
      written.mark(address, size);
      return;
    }
  }
  const uint64_t hole = written.first_unwritten(address, size);
  if (hole != uint64_t(address) + size) {
    const Region* region = chip().cores[index].find(address, size);
    raise(FaultKind::unwritten_read, "{}: byte {:#x} of {} on core {} was never written this launch",
          what, hole, region ? region->name : "L1", core_name(core_at(index)));
  }
}

void require_float_tiles(const CbRuntime& cb, std::string_view call) {
  if (cb.config->integer == IntegerFormat::none) return;
  raise(FaultKind::bad_call,
        "{}: cb {} holds {} tiles, which the emulator's compute ops do not model (Float32, Float16_b and Bfp8_b only)",
        call, cb.name(), integer_format_name(cb.config->integer));
}

void deliver(PendingTransfer& transfer) {
  ChipState& c = chip();
  const uint32_t size = uint32_t(transfer.data.size());
  if (transfer.to_dram) {
    std::memcpy(c.dram.bank_bytes(transfer.bank, transfer.address), transfer.data.data(), size);
    c.dram.written(transfer.bank).mark(transfer.address, size);
  } else {
    for (uint32_t index : transfer.core_indices) {
      std::memcpy(l1_bytes(index, transfer.address), transfer.data.data(), size);
      c.memory[index].written.mark(transfer.address, size);
      if (!transfer.data.empty()) --c.inbound_pending[index];
    }
  }
  transfer.data.clear();
  transfer.core_indices.clear();
}

Device::Device() : chip_(std::make_unique<ChipState>()) {
  for (uint32_t index = 0; index < kNumCores; ++index) chip_->memory[index].l1 = chip_->l1.core(index);
}

Device::~Device() = default;

const DramBuffer& Device::allocate_interleaved(std::string name, TileFormat format, uint64_t size,
                                               uint32_t page_bytes, std::optional<uint32_t> address) {
  return chip_->dram.allocate(std::move(name), DramLayout::interleaved, format, size, page_bytes, address);
}

const DramBuffer& Device::allocate_sharded(std::string name, TileFormat format, uint64_t size,
                                           uint32_t shard_bytes, std::optional<uint32_t> address) {
  return chip_->dram.allocate(std::move(name), DramLayout::sharded, format, size, shard_bytes, address);
}

void Device::write_buffer(const DramBuffer& buffer, std::span<const std::byte> bytes) {
  chip_->dram.write(buffer, bytes);
}

std::vector<std::byte> Device::read_buffer(const DramBuffer& buffer) const {
  return chip_->dram.read(buffer);
}

const L1Buffer& Device::allocate_l1(L1Buffer buffer) {
  require(!buffer.cores.empty() && buffer.bytes > 0, "L1 buffer '{}': no cores or no bytes", buffer.name);
  require(uint64_t(buffer.address) + buffer.bytes <= kL1Bytes, "L1 buffer '{}': [{:#x}, +{}) runs past the {} B of L1",
          buffer.name, buffer.address, buffer.bytes, kL1Bytes);
  std::set<CoreCoord> cores;
  for (CoreCoord core : buffer.cores) {
    require(on_grid(core), "L1 buffer '{}': core {} is off the {}x{} grid", buffer.name, core_name(core), kGridX, kGridY);
    require(cores.insert(core).second, "L1 buffer '{}': core {} listed twice", buffer.name, core_name(core));
  }
  for (const L1Buffer& other : chip_->l1_buffers) {
    if (buffer.address >= other.address + other.bytes || other.address >= buffer.address + buffer.bytes) continue;
    for (CoreCoord core : other.cores) {
      require(!cores.count(core), "L1 buffer '{}' [{:#x}, {:#x}) overlaps L1 buffer '{}' on core {}", buffer.name,
              buffer.address, buffer.address + buffer.bytes, other.name, core_name(core));
    }
  }
  for (CoreCoord core : buffer.cores) chip_->memory[core_index(core)].written.clear(buffer.address, buffer.bytes);
  return chip_->l1_buffers.emplace_back(std::move(buffer));
}

void Device::write_l1(const L1Buffer& buffer, CoreCoord core, uint32_t offset, std::span<const std::byte> bytes) {
  require(std::find(buffer.cores.begin(), buffer.cores.end(), core) != buffer.cores.end(),
          "write_l1: L1 buffer '{}' has no bytes on core {}", buffer.name, core_name(core));
  require(uint64_t(offset) + bytes.size() <= buffer.bytes, "write_l1: {} B at offset {} run past L1 buffer '{}' ({} B)",
          bytes.size(), offset, buffer.name, buffer.bytes);
  CoreMemory& memory = chip_->memory[core_index(core)];
  std::memcpy(memory.l1 + buffer.address + offset, bytes.data(), bytes.size());
  memory.written.mark(buffer.address + offset, bytes.size());
}

std::vector<std::byte> Device::read_l1(const L1Buffer& buffer, CoreCoord core, uint32_t offset, uint32_t size) const {
  require(std::find(buffer.cores.begin(), buffer.cores.end(), core) != buffer.cores.end(),
          "read_l1: L1 buffer '{}' has no bytes on core {}", buffer.name, core_name(core));
  require(uint64_t(offset) + size <= buffer.bytes, "read_l1: {} B at offset {} run past L1 buffer '{}' ({} B)", size,
          offset, buffer.name, buffer.bytes);
  const CoreMemory& memory = chip_->memory[core_index(core)];
  const uint64_t hole = memory.written.first_unwritten(buffer.address + offset, size);
  require(hole == uint64_t(buffer.address) + offset + size, "read_l1: byte {} of L1 buffer '{}' on core {} was never written",
          hole - buffer.address, buffer.name, core_name(core));
  const std::byte* begin = memory.l1 + buffer.address + offset;
  return {begin, begin + size};
}

namespace {

// As tt-metal refuses a program whose CBs clash with L1 buffers: CBs and semaphores stay clear of
// every L1 buffer on the cores it lies on.
void require_clear_of_l1_buffers(const Program& program, const std::deque<L1Buffer>& buffers) {
  for (const L1Buffer& buffer : buffers) {
    const uint64_t begin = buffer.address, end = uint64_t(buffer.address) + buffer.bytes;
    const std::set<CoreCoord> cores(buffer.cores.begin(), buffer.cores.end());
    for (const CbConfig& cb : program.cbs) {
      if (cb.address >= end || cb.address + uint64_t(cb.total_bytes) <= begin) continue;
      for (CoreCoord core : cb.cores) {
        require(!cores.count(core), "program: CB '{}' [{:#x}, {:#x}) overlaps L1 buffer '{}' on core {}", cb.name,
                cb.address, cb.address + cb.total_bytes, buffer.name, core_name(core));
      }
    }
    for (const SemaphoreConfig& sem : program.semaphores) {
      if (sem.address >= end || sem.address + uint64_t(kSemaphoreBytes) <= begin) continue;
      for (CoreCoord core : program.cores) {
        require(!cores.count(core), "program: semaphore '{}' at {:#x} lies inside L1 buffer '{}' on core {}", sem.name,
                sem.address, buffer.name, core_name(core));
      }
    }
  }
}

}  // namespace

void Device::load(Program program) {
  validate(program);
  require_clear_of_l1_buffers(program, chip_->l1_buffers);
  chip_->processors.clear();
  chip_->program = std::make_unique<Program>(std::move(program));
  const Program& p = *chip_->program;
  for (uint32_t index = 0; index < kNumCores; ++index) {
    chip_->cores[index] = CoreRuntime{};
    chip_->cores[index].coord = core_at(index);
  }
  for (const L1Buffer& buffer : chip_->l1_buffers) {
    for (CoreCoord coord : buffer.cores) {
      CoreRuntime& core = chip_->cores[core_index(coord)];
      core.holds_l1_buffer = true;
      core.regions.push_back({buffer.address, buffer.address + buffer.bytes, fmt::format("L1 buffer '{}'", buffer.name)});
    }
  }
  for (CoreCoord coord : p.cores) {
    CoreRuntime& core = chip_->cores[core_index(coord)];
    core.in_program = true;
    for (const CbConfig& cb : p.cbs) {
      if (!cb.cores.count(coord)) continue;
      core.cb_storage.push_back(CbRuntime{&cb, cb.total_bytes / cb.page_bytes});
      core.regions.push_back({cb.address, cb.address + cb.total_bytes,
                              fmt::format("CB '{}' #{}", cb.name, cb.id)});
    }
    for (CbRuntime& cb : core.cb_storage) core.cbs[cb.config->id] = &cb;
    for (const SemaphoreConfig& sem : p.semaphores) {
      core.semaphores[sem.id] = &sem;
      core.regions.push_back({sem.address, sem.address + kSemaphoreBytes,
                              fmt::format("semaphore '{}' #{}", sem.name, sem.id)});
    }
    for (const ScratchRegion& region : p.scratch_regions) {
      if (region.cores.count(coord))
        core.regions.push_back({region.address, region.address + region.bytes, fmt::format("scratchpad '{}'", region.name)});
    }
  }
  for (CoreRuntime& core : chip_->cores) {
    std::sort(core.regions.begin(), core.regions.end(),
              [](const Region& a, const Region& b) { return a.begin < b.begin; });
  }
}

void Device::write_cb(CoreCoord core, std::string_view cb_name, std::span<const std::byte> bytes,
                      uint32_t offset) {
  require(chip_->program != nullptr, "write_cb: no program loaded");
  const CbConfig& cb = find_cb(*chip_->program, core, cb_name);
  require(cb.tensor_backed, "write_cb: CB '{}' is not tensor-backed; only the kernel fills it", cb.name);
  require(uint64_t(offset) + bytes.size() <= cb.total_bytes,
          "write_cb: {} B at offset {} run past CB '{}' ({} B)", bytes.size(), offset, cb.name,
          cb.total_bytes);
  CoreMemory& memory = chip_->memory[core_index(core)];
  std::memcpy(memory.l1 + cb.address + offset, bytes.data(), bytes.size());
  memory.written.mark(cb.address + offset, bytes.size());
}

std::vector<std::byte> Device::read_cb(CoreCoord core, std::string_view cb_name, uint32_t size) const {
  require(chip_->program != nullptr, "read_cb: no program loaded");
  const CbConfig& cb = find_cb(*chip_->program, core, cb_name);
  const CoreMemory& memory = chip_->memory[core_index(core)];
  const uint32_t bytes = std::min(size, cb.total_bytes);
  const uint64_t hole = memory.written.first_unwritten(cb.address, bytes);
  require(hole == uint64_t(cb.address) + bytes, "read_cb: byte {} of CB '{}' on core {} was never written",
          hole - cb.address, cb.name, core_name(core));
  const std::byte* begin = memory.l1 + cb.address;
  return {begin, begin + bytes};
}

void Device::set_timing(bool on) { chip_->timing = on; }

void Device::set_strict(bool on) { chip_->strict = on; }
bool Device::strict() const { return chip_->strict; }

void Device::set_watchdog(double seconds) {
  require(seconds >= 0 && std::isfinite(seconds), "watchdog: limit {} s is not a non-negative number", seconds);
  chip_->watchdog_seconds = seconds;
}

LaunchReport Device::launch() {
  require(chip_->program != nullptr, "launch: no program loaded");
  ChipState& chip = *chip_;
  reset_for_launch(chip);
  start_processors(chip);
  LaunchReport report;
  {
    KernelGuard guard(chip.watchdog_seconds);
    if (std::optional<Fault> fault = schedule(chip, guard)) {
      cancel_all(chip, guard);
      report.faults.push_back(std::move(*fault));
    }
  }
  chip.processors.clear();
  report.warnings = std::move(chip.warnings);
  chip.warnings.clear();
  collect_high_water(chip);
  report.counters = chip.counters;
  report.bound = time_lower_bound(report.counters);
  if (chip.timing && report.clean()) {
    report.timing = std::make_shared<const TimingResult>(model_timing(chip.timing_log, *chip.program, blackhole_timing()));
  }
  chip.timing_log = TimingLog{};
  return report;
}

nlohmann::json to_json(const LaunchReport& report) {
  nlohmann::json faults = nlohmann::json::array();
  for (const Fault& fault : report.faults) {
    faults.push_back({{"kind", fault_kind_name(fault.kind)},
                      {"where", fault.where},
                      {"message", fault.message},
                      {"waiters", fault.waiters}});
  }
  return {{"faults", faults},
          {"warnings", report.warnings},
          {"counters", to_json(report.counters)},
          {"time_lower_bound", to_json(report.bound)}};
}

}  // namespace ditmk::tt::emu
