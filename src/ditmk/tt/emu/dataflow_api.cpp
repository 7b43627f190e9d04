#include "ditmk/tt/emu/dataflow_api.hpp"

#include <algorithm>
#include <cstring>

#include "ditmk/tt/emu/launch_state.hpp"
#include "ditmk/tt/emu/noc_address.hpp"
#include "ditmk/tt/emu/timing_params.hpp"

namespace ditmk::tt::emu {

namespace {

CoreRuntime& core() { return *current().core; }
uint32_t core_idx() { return core_index(core().coord); }
uint32_t my_noc() { return current().noc; }

void require_dataflow(std::string_view call) {
  if (current().processor == Processor::trisc) {
    raise(FaultKind::bad_call, "{} is a dataflow call; TRISC has no NoC access", call);
  }
}

CbRuntime& cb_of(uint32_t id, std::string_view call) {
  CbRuntime* cb = id < kMaxCbId ? core().cbs[id] : nullptr;
  if (!cb) raise(FaultKind::bad_call, "{}: core {} has no CB #{}", call, core_name(core().coord), id);
  return *cb;
}

// A transfer into the issuing processor's list, counted against the cores it lands on.
void queue(std::vector<PendingTransfer>& list, PendingTransfer t) {
  if (!t.to_dram && !t.data.empty()) {
    for (uint32_t index : t.core_indices) ++chip().inbound_pending[index];
  }
  list.push_back(std::move(t));
}

void mark_written_except_inbound(uint32_t begin, uint32_t end);

// A compiled kernel fills pages through pointers, which the emulator cannot see: the pages it pushes
// count as written, except bytes a NoC transfer into this core has not landed yet (a push before the
// read barrier stays an unwritten read for the consumer).
void mark_pointer_stores(const CbRuntime& cb, uint32_t page, uint32_t pages) {
  const uint32_t begin = cb.config->address + page * cb.config->page_bytes;
  mark_written_except_inbound(begin, begin + pages * cb.config->page_bytes);
}

// [begin, end) of this core's L1 counts as written, except bytes a NoC transfer into this core has
// not landed yet.
void mark_written_except_inbound(uint32_t begin, uint32_t end) {
  WrittenMap& written = chip().memory[core_idx()].written;
  if (chip().inbound_pending[core_idx()] == 0) {
    written.mark(begin, end - begin);
    return;
  }
  std::vector<std::pair<uint32_t, uint32_t>> pending;
  for (const auto& p : chip().processors) {
    for (const std::vector<PendingTransfer>* list : {&p->reads, &p->writes}) {
      for (const PendingTransfer& t : *list) {
        if (t.to_dram || t.data.empty()) continue;
        for (uint32_t index : t.core_indices) {
          if (index == core_idx()) pending.push_back({t.address, t.address + uint32_t(t.data.size())});
        }
      }
    }
  }
  std::sort(pending.begin(), pending.end());
  uint32_t at = begin;
  for (const auto& [pb, pe] : pending) {
    if (pe <= at || pb >= end) continue;
    if (pb > at) written.mark(at, pb - at);
    at = std::max(at, pe);
  }
  if (at < end) written.mark(at, end - at);
}

// The source of an outgoing transfer must have been written; a compiled kernel may have filled it
// through pointers inside a window it reserved (a page built by hand and sent without a push).
void require_source_written(uint32_t src_l1, uint32_t size, std::string_view call) {
  if (current().kernel->l1_pointers) {
    for (const CbRuntime& cb : core().cb_storage) {
      const uint32_t begin = cb.config->address + cb.wr_page * cb.config->page_bytes;
      const uint32_t end = begin + cb.reserved * cb.config->page_bytes;
      if (cb.reserved && src_l1 >= begin && uint64_t(src_l1) + size <= end) {
        chip().memory[core_idx()].written.mark(src_l1, size);
        break;
      }
    }
  }
  require_written_l1(core_idx(), src_l1, size, call);
}

// A compiled kernel may also build bytes through pointers in a CB nobody on its core reserves or
// pushes (a Metal 2.0 self-loop buffer used as plain L1, e.g. a row of the pad value it then copies
// about with NoC reads from its own core). Such a CB is filled only by pointer stores and NoC
// transfers, so a NoC read of it from its own core counts its bytes as written, as a scratchpad's
// are, except bytes an inbound transfer has not landed yet.
void mark_untouched_cb_source(uint32_t src_l1, uint32_t size) {
  if (!current().kernel->l1_pointers) return;
  for (const CbRuntime& cb : core().cb_storage) {
    const uint32_t begin = cb.config->address;
    const uint64_t end = uint64_t(begin) + uint64_t(cb.pages) * cb.config->page_bytes;
    if (cb.pushed == 0 && cb.reserved == 0 && cb.high_water_pages == 0 && src_l1 >= begin &&
        uint64_t(src_l1) + size <= end) {
      mark_written_except_inbound(src_l1, src_l1 + size);
      return;
    }
  }
}

void note_high_water(CbRuntime& cb) {
  cb.high_water_pages = std::max(cb.high_water_pages, cb.occupied() + cb.reserved);
}

// A window of `pages` pages starting at `page` must end on or before the CB's end: the pointers wrap
// only when they land exactly on it.
void require_window(const CbRuntime& cb, uint32_t page, uint32_t pages, std::string_view call) {
  if (page + pages > cb.pages) {
    raise(FaultKind::cb_overflow, "{}(cb {}, {}): the window starts at page {} and runs past the {}-page end",
          call, cb.name(), pages, page, cb.pages);
  }
}

const SemaphoreConfig& semaphore_at(const CoreRuntime& target, uint32_t address, std::string_view call) {
  for (const SemaphoreConfig* sem : target.semaphores) {
    if (sem && sem->address == address) return *sem;
  }
  raise(FaultKind::out_of_bounds, "{}: {:#x} is not a semaphore on core {}", call, address,
        core_name(target.coord));
}

uint32_t read_word(uint32_t index, uint32_t address) {
  uint32_t value;
  std::memcpy(&value, l1_bytes(index, address), sizeof(value));
  return value;
}

void write_word(uint32_t index, uint32_t address, uint32_t value) {
  std::memcpy(l1_bytes(index, address), &value, sizeof(value));
  chip().memory[index].written.mark(address, sizeof(value));
}

CoreRuntime& target_core(uint32_t x, uint32_t y, std::string_view call) {
  const CoreCoord coord{x, y};
  if (!on_grid(coord) || (!chip().cores[core_index(coord)].in_program && !chip().cores[core_index(coord)].holds_l1_buffer)) {
    raise(FaultKind::out_of_bounds, "{}: core {} does not run this program and holds no L1 buffer", call,
          core_name(coord));
  }
  return chip().cores[core_index(coord)];
}

// The cores of a multicast rectangle, checked for the region and the destination count.
std::vector<uint32_t> multicast_targets(const NocAddress& a, uint32_t size, uint32_t num_dests,
                                        bool loopback, std::string_view call) {
  if (a.target != NocTarget::multicast) {
    raise(FaultKind::bad_call, "{}: the destination is not a multicast address", call);
  }
  std::vector<uint32_t> targets;
  for (uint32_t y = a.y0; y <= a.y1; ++y) {
    for (uint32_t x = a.x0; x <= a.x1; ++x) {
      const CoreCoord coord{x, y};
      if (!on_grid(coord)) {
        raise(FaultKind::multicast_target, "{}: rectangle ({},{})-({},{}) leaves the grid", call, a.x0,
              a.y0, a.x1, a.y1);
      }
      if (coord == core().coord && !loopback) continue;
      const CoreRuntime& target = chip().cores[core_index(coord)];
      if (!target.find(a.address, size)) {
        raise(FaultKind::multicast_target,
              "{}: core {} of rectangle ({},{})-({},{}) has no CB, semaphore or L1 buffer at [{:#x}, {:#x})", call,
              core_name(coord), a.x0, a.y0, a.x1, a.y1, a.address, uint64_t(a.address) + size);
      }
      targets.push_back(core_index(coord));
    }
  }
  if (targets.size() != num_dests) {
    raise(FaultKind::multicast_target, "{}: num_dests {} but the rectangle ({},{})-({},{}) has {} destinations",
          call, num_dests, a.x0, a.y0, a.x1, a.y1, targets.size());
  }
  return targets;
}

void count_noc(uint32_t sender_index, const std::vector<uint32_t>& receivers, uint64_t bytes) {
  Counters& counters = chip().counters;
  const uint32_t noc = my_noc();
  counters.noc[noc].bytes += bytes;
  counters.noc[noc].transfers += 1;
  counters.cores[core_idx()].transfers[noc] += 1;
  if (sender_index != UINT32_MAX) counters.cores[sender_index].sent_bytes[noc] += bytes;
  for (uint32_t index : receivers) counters.cores[index].received_bytes[noc] += bytes;
}

void count_dram(const DramBuffer& buffer, uint32_t bank, uint32_t address, uint32_t bytes, bool write) {
  Counters& counters = chip().counters;
  BankTraffic& t = counters.dram[bank];
  (write ? t.write_bytes : t.read_bytes) += bytes;
  if (!write) counters.dram_reads.push_back({bank, address, bytes});
  if (buffer.format == TileFormat::bfp8_b) t.bfp8_bytes += bytes;
}

const DramBuffer& dram_buffer(uint32_t bank, uint32_t address, uint32_t size, std::string_view call) {
  if (bank >= kNumDramBanks) raise(FaultKind::out_of_bounds, "{}: DRAM bank {} does not exist", call, bank);
  const DramBuffer* buffer = chip().dram.buffer_at(bank, address, size);
  if (!buffer) {
    raise(FaultKind::out_of_bounds, "{}: DRAM bank {} [{:#x}, {:#x}) lies outside every buffer", call,
          bank, address, uint64_t(address) + size);
  }
  return *buffer;
}

// Unwritten bytes of a DRAM read fault, except where every one of them is a unit's alignment
// padding (the bytes between a page's or shard's end and the next 64 B boundary): kernels that read
// whole aligned blocks (embedding's index reader) touch them and ignore what they hold, which
// silicon allows, so that is a warning, and a fault only in a strict launch.
void require_dram_written(const DramBuffer& buffer, uint32_t bank, uint32_t address, uint32_t size,
                          std::string_view call) {
  const WrittenMap& written = chip().dram.written(bank);
  const uint64_t end = uint64_t(address) + size;
  const uint64_t hole = written.first_unwritten(address, size);
  if (hole == end) return;
  bool only_padding = buffer.unit_stride > buffer.unit_bytes;
  for (uint64_t unit = (address - buffer.address) / buffer.unit_stride; only_padding; ++unit) {
    const uint64_t begin = buffer.address + unit * buffer.unit_stride;
    if (begin >= end) break;
    const uint64_t data_begin = std::max<uint64_t>(begin, address);
    const uint64_t data_end = std::min<uint64_t>(begin + buffer.unit_bytes, end);
    if (data_begin < data_end &&
        written.first_unwritten(data_begin, data_end - data_begin) != data_end) only_padding = false;
  }
  if (!only_padding || chip().strict) {
    raise(FaultKind::unwritten_read, "{}: byte {:#x} of DRAM buffer '{}' in bank {} was never written{}", call,
          hole, buffer.name, bank, only_padding ? " (alignment padding; strict)" : "");
  }
  warn("{}: {}: reads the alignment padding of DRAM buffer '{}' (bytes no one wrote, past a {} B unit): "
       "accepted, as on silicon (a fault under --strict)", current().where(), call, buffer.name, buffer.unit_bytes);
}

void write_multicast(uint32_t src_l1, uint64_t dst, uint32_t size, uint32_t num_dests, bool loopback,
                     std::string_view call) {
  require_dataflow(call);
  local_region(src_l1, size, call);
  require_source_written(src_l1, size, call);
  const NocAddress a = decode(dst);
  PendingTransfer t;
  t.core_indices = multicast_targets(a, size, num_dests, loopback, call);
  t.address = a.address;
  t.data.assign(l1_bytes(core_idx(), src_l1), l1_bytes(core_idx(), src_l1) + size);
  count_noc(core_idx(), t.core_indices, size);
  record({OpKind::noc_mcast, loopback, pack_rect(a.x0, a.y0, a.x1, a.y1), size, num_dests});
  queue(current().writes, std::move(t));
}

// A data mover reading or writing L1 itself, a word at a time.
void record_mover_bytes(uint32_t bytes) {
  if (current().processor != Processor::trisc) {
    record({OpKind::mover, false, 0, 0, 0, bytes / blackhole_timing().risc_l1_bytes_per_cycle});
  }
}

}  // namespace

Processor current_processor() { return current().processor; }
CoreCoord my_core() { return core().coord; }

uint32_t get_arg_val(uint32_t index) {
  const std::vector<uint32_t>* args = current().args;
  const std::size_t count = args ? args->size() : 0;
  if (index >= count) {
    raise(FaultKind::missing_arg, "get_arg_val({}): core {} has {} runtime args", index,
          core_name(core().coord), count);
  }
  return (*args)[index];
}

uint32_t get_common_arg_val(uint32_t index) {
  const std::vector<uint32_t>& args = current().kernel->common_args;
  if (index >= args.size()) {
    raise(FaultKind::missing_arg, "get_common_arg_val({}): the kernel has {} common runtime args",
          index, args.size());
  }
  return args[index];
}

uint32_t get_named_compile_time_arg_val(std::string_view name) {
  const KernelBinding& kernel = *current().kernel;
  for (const RoleFlag& flag : kernel.role_flags) {
    if (flag.name == name) return flag.cores.count(core().coord) ? 1 : 0;
  }
  auto it = kernel.named_args.find(std::string(name));
  if (it == kernel.named_args.end()) {
    raise(FaultKind::missing_arg, "get_named_compile_time_arg_val(\"{}\"): no such named arg", name);
  }
  return it->second;
}

void cb_reserve_back(uint32_t id, uint32_t pages) {
  CbRuntime& cb = cb_of(id, "cb_reserve_back");
  if (pages > cb.pages) {
    raise(FaultKind::cb_overflow, "cb_reserve_back(cb {}, {}): the CB has only {} pages", cb.name(),
          pages, cb.pages);
  }
  require_window(cb, cb.wr_page, pages, "cb_reserve_back");
  record({OpKind::cb_reserve, false, id, pages});
  CbRuntime* p = &cb;
  wait_until([p, pages] { return p->free_pages() >= pages; },
             [p, pages] { return fmt::format("cb_reserve_back(cb {}, {}): {}", p->name(), pages, p->state()); });
  cb.reserved = std::max(cb.reserved, pages);
  note_high_water(cb);
}

void cb_push_back(uint32_t id, uint32_t pages) {
  CbRuntime& cb = cb_of(id, "cb_push_back");
  if (pages > cb.free_pages()) {
    raise(FaultKind::cb_overflow, "cb_push_back(cb {}, {}): only {} pages are free; {}", cb.name(),
          pages, cb.free_pages(), cb.state());
  }
  require_window(cb, cb.wr_page, pages, "cb_push_back");
  if (current().kernel->l1_pointers) mark_pointer_stores(cb, cb.wr_page, pages);
  cb.pushed += pages;
  record({OpKind::cb_push, false, id, pages});
  cb.wr_page = (cb.wr_page + pages) % cb.pages;
  cb.reserved = cb.reserved > pages ? cb.reserved - pages : 0;
  cb.packed = 0;
  note_high_water(cb);
}

void cb_wait_front(uint32_t id, uint32_t pages) {
  CbRuntime& cb = cb_of(id, "cb_wait_front");
  if (pages > cb.pages) {
    raise(FaultKind::cb_underflow, "cb_wait_front(cb {}, {}): the CB can never hold more than {} pages",
          cb.name(), pages, cb.pages);
  }
  require_window(cb, cb.rd_page, pages, "cb_wait_front");
  record({OpKind::cb_wait, false, id, pages});
  CbRuntime* p = &cb;
  wait_until([p, pages] { return p->occupied() >= pages; },
             [p, pages] { return fmt::format("cb_wait_front(cb {}, {}): {}", p->name(), pages, p->state()); });
}

void cb_pop_front(uint32_t id, uint32_t pages) {
  CbRuntime& cb = cb_of(id, "cb_pop_front");
  if (pages > cb.occupied()) {
    raise(FaultKind::cb_underflow, "cb_pop_front(cb {}, {}): only {} pages are filled; {}", cb.name(),
          pages, cb.occupied(), cb.state());
  }
  cb.popped += pages;
  record({OpKind::cb_pop, false, id, pages});
  cb.rd_page = (cb.rd_page + pages) % cb.pages;
}

uint32_t get_write_ptr(uint32_t id) {
  const CbRuntime& cb = cb_of(id, "get_write_ptr");
  return cb.config->address + cb.wr_page * cb.config->page_bytes;
}

uint32_t get_read_ptr(uint32_t id) {
  const CbRuntime& cb = cb_of(id, "get_read_ptr");
  return cb.config->address + cb.rd_page * cb.config->page_bytes;
}

void l1_write(uint32_t address, const void* bytes, uint32_t size) {
  local_region(address, size, "l1_write");
  std::memcpy(l1_bytes(core_idx(), address), bytes, size);
  chip().memory[core_idx()].written.mark(address, size);
  record_mover_bytes(size);
}

void l1_read(uint32_t address, void* bytes, uint32_t size) {
  local_region(address, size, "l1_read");
  require_written_l1(core_idx(), address, size, "l1_read");
  std::memcpy(bytes, l1_bytes(core_idx(), address), size);
  record_mover_bytes(size);
}

void risc_l1_bytes(uint32_t bytes) { record_mover_bytes(bytes); }

uint64_t get_noc_addr(uint32_t x, uint32_t y, uint32_t address) {
  return encode({NocTarget::core, x, y, 0, 0, address});
}

uint64_t get_noc_multicast_addr(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, uint32_t address) {
  return encode({NocTarget::multicast, x0, y0, x1, y1, address});
}

uint64_t get_noc_addr_from_bank_id(uint32_t bank, uint32_t bank_address) {
  return encode({NocTarget::dram, bank, 0, 0, 0, bank_address});
}

uint64_t get_noc_addr_from_l1_bank(uint32_t bank, uint32_t bank_address, std::string_view call) {
  if (bank >= kNumL1Banks) {
    raise(FaultKind::out_of_bounds, "{}: L1 bank {} does not exist (the chip has {} L1 banks, one per worker core)",
          call, bank, kNumL1Banks);
  }
  const CoreCoord core = l1_bank_core(bank);
  return encode({NocTarget::core, core.x, core.y, 0, 0, bank_address});
}

uint64_t InterleavedAddrGen::get_noc_addr(uint32_t page, uint32_t offset) const {
  const uint32_t stride = (page_size + kDramAlignment - 1) / kDramAlignment * kDramAlignment;
  return get_noc_addr_from_bank_id(page % kNumDramBanks,
                                   bank_base_address + (page / kNumDramBanks) * stride + offset);
}

void noc_async_read(uint64_t src, uint32_t dst_l1, uint32_t size) {
  constexpr std::string_view call = "noc_async_read";
  require_dataflow(call);
  local_region(dst_l1, size, call);
  const NocAddress a = decode(src);
  PendingTransfer t;
  t.core_indices = {core_idx()};
  t.address = dst_l1;
  if (a.target == NocTarget::dram) {
    const DramBuffer& buffer = dram_buffer(a.x0, a.address, size, call);
    require_dram_written(buffer, a.x0, a.address, size, call);
    const std::byte* from = chip().dram.bank_bytes(a.x0, a.address);
    t.data.assign(from, from + size);
    count_dram(buffer, a.x0, a.address, size, false);
    count_noc(UINT32_MAX, t.core_indices, size);
    record({OpKind::noc_read, buffer.format == TileFormat::bfp8_b, dram_endpoint(a.x0), size});
  } else if (a.target == NocTarget::core) {
    const CoreRuntime& source = target_core(a.x0, a.y0, call);
    const uint32_t index = core_index(source.coord);
    if (!source.find(a.address, size)) {
      raise(FaultKind::out_of_bounds, "{}: L1 [{:#x}, {:#x}) of core {} lies outside its CBs, semaphores and L1 buffers",
            call, a.address, uint64_t(a.address) + size, core_name(source.coord));
    }
    if (index == core_idx()) mark_untouched_cb_source(a.address, size);
    require_written_l1(index, a.address, size, call);
    t.data.assign(l1_bytes(index, a.address), l1_bytes(index, a.address) + size);
    count_noc(index, t.core_indices, size);
    record({OpKind::noc_read, false, index, size});
  } else {
    raise(FaultKind::bad_call, "{}: a multicast address cannot be read", call);
  }
  queue(current().reads, std::move(t));
}

void noc_async_write(uint32_t src_l1, uint64_t dst, uint32_t size) {
  constexpr std::string_view call = "noc_async_write";
  require_dataflow(call);
  local_region(src_l1, size, call);
  require_source_written(src_l1, size, call);
  const NocAddress a = decode(dst);
  PendingTransfer t;
  t.address = a.address;
  t.data.assign(l1_bytes(core_idx(), src_l1), l1_bytes(core_idx(), src_l1) + size);
  if (a.target == NocTarget::dram) {
    const DramBuffer& buffer = dram_buffer(a.x0, a.address, size, call);
    t.to_dram = true;
    t.bank = a.x0;
    count_dram(buffer, a.x0, a.address, size, true);
    count_noc(core_idx(), {}, size);
    record({OpKind::noc_write, buffer.format == TileFormat::bfp8_b, dram_endpoint(a.x0), size});
  } else if (a.target == NocTarget::core) {
    const CoreRuntime& target = target_core(a.x0, a.y0, call);
    if (!target.find(a.address, size)) {
      raise(FaultKind::out_of_bounds, "{}: L1 [{:#x}, {:#x}) of core {} lies outside its CBs, semaphores and L1 buffers",
            call, a.address, uint64_t(a.address) + size, core_name(target.coord));
    }
    t.core_indices = {core_index(target.coord)};
    count_noc(core_idx(), t.core_indices, size);
    record({OpKind::noc_write, false, core_index(target.coord), size});
  } else {
    raise(FaultKind::bad_call, "{}: use noc_async_write_multicast for a multicast address", call);
  }
  queue(current().writes, std::move(t));
}

void noc_async_write_multicast(uint32_t src_l1, uint64_t dst, uint32_t size, uint32_t num_dests) {
  write_multicast(src_l1, dst, size, num_dests, false, "noc_async_write_multicast");
}

void noc_async_write_multicast_loopback_src(uint32_t src_l1, uint64_t dst, uint32_t size,
                                            uint32_t num_dests) {
  write_multicast(src_l1, dst, size, num_dests, true, "noc_async_write_multicast_loopback_src");
}

void noc_async_read_barrier() {
  require_dataflow("noc_async_read_barrier");
  record({OpKind::read_barrier});
  for (PendingTransfer& t : current().reads) deliver(t);
  current().reads.clear();
}

void noc_async_write_barrier() {
  require_dataflow("noc_async_write_barrier");
  record({OpKind::write_barrier});
  for (PendingTransfer& t : current().writes) deliver(t);
  current().writes.clear();
}

uint32_t get_semaphore(uint32_t id) {
  const SemaphoreConfig* sem = id < kSemaphoresPerCore ? core().semaphores[id] : nullptr;
  if (!sem) raise(FaultKind::missing_arg, "get_semaphore({}): the program has no semaphore #{}", id, id);
  return sem->address;
}

namespace {
void semaphore_wait(uint32_t sem_addr, uint32_t value, bool at_least, std::string_view call) {
  const SemaphoreConfig& sem = semaphore_at(core(), sem_addr, call);
  const uint32_t index = core_idx();
  const std::string what = fmt::format("{}(semaphore '{}' #{} {} {})", call, sem.name, sem.id,
                                       at_least ? ">=" : "==", value);
  // the scheduler evaluates the wait outside the fiber: capture the word itself
  record({OpKind::sem_wait, at_least, 0, sem.id, value});
  const std::byte* word = l1_bytes(index, sem_addr);
  auto load = [word] {
    uint32_t now;
    std::memcpy(&now, word, sizeof(now));
    return now;
  };
  wait_until([load, value, at_least] { return at_least ? load() >= value : load() == value; },
             [load, what] { return fmt::format("{}: value {}", what, load()); });
}
}  // namespace

void noc_semaphore_wait(uint32_t sem_addr, uint32_t value) {
  semaphore_wait(sem_addr, value, false, "noc_semaphore_wait");
}

void noc_semaphore_wait_min(uint32_t sem_addr, uint32_t value) {
  semaphore_wait(sem_addr, value, true, "noc_semaphore_wait_min");
}

void noc_semaphore_set(uint32_t sem_addr, uint32_t value) {
  const SemaphoreConfig& sem = semaphore_at(core(), sem_addr, "noc_semaphore_set");
  write_word(core_idx(), sem_addr, value);
  record({OpKind::sem_set, false, 0, sem.id, value});
}

void noc_semaphore_inc(uint64_t sem_noc_addr, uint32_t increment) {
  constexpr std::string_view call = "noc_semaphore_inc";
  require_dataflow(call);
  const NocAddress a = decode(sem_noc_addr);
  if (a.target != NocTarget::core) raise(FaultKind::bad_call, "{}: the address is not one core's", call);
  const CoreRuntime& target = target_core(a.x0, a.y0, call);
  const SemaphoreConfig& sem = semaphore_at(target, a.address, call);
  const uint32_t index = core_index(target.coord);
  write_word(index, a.address, read_word(index, a.address) + increment);
  count_noc(core_idx(), {index}, sizeof(uint32_t));
  record({OpKind::sem_inc, false, index, sem.id, increment});
}

void noc_semaphore_set_multicast(uint32_t src_sem_addr, uint64_t dst, uint32_t num_dests) {
  constexpr std::string_view call = "noc_semaphore_set_multicast";
  require_dataflow(call);
  semaphore_at(core(), src_sem_addr, call);
  const uint32_t value = read_word(core_idx(), src_sem_addr);
  const NocAddress a = decode(dst);
  const std::vector<uint32_t> targets = multicast_targets(a, sizeof(uint32_t), num_dests, false, call);
  uint32_t sem_id = 0;
  for (uint32_t index : targets) {
    sem_id = semaphore_at(chip().cores[index], a.address, call).id;
    write_word(index, a.address, value);
  }
  count_noc(core_idx(), targets, sizeof(uint32_t));
  record({OpKind::sem_mcast, false, pack_rect(a.x0, a.y0, a.x1, a.y1), sem_id, value});
}

}  // namespace ditmk::tt::emu
