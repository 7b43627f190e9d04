// The device ABI's args, CBs, NoC and semaphores: forwards to tt/emu/dataflow_api.hpp with the
// kernel's L1 window addresses turned into L1 offsets (and back for the addresses a kernel gets).
#include <cstring>

#include "ditmk/tt/device_abi/device_abi_parts.hpp"
#include "ditmk/tt/device_abi/launch_access.hpp"
#include "ditmk/tt/emu/dataflow_api.hpp"
#include "ditmk/tt/emu/l1_window.hpp"
#include "ditmk/tt/emu/launch_state.hpp"
#include "ditmk/tt/emu/noc_address.hpp"
#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::dialect::abi {

using emu::FaultKind;

namespace {

// A NoC address whose L1 part a kernel may have formed from a window address (get_noc_addr(x, y, 0)
// plus a pointer, say): the L1 part as an offset. DRAM addresses are left alone.
uint64_t with_l1_offset(uint64_t noc_address) {
  emu::NocAddress a = emu::decode(noc_address);
  if (a.target == emu::NocTarget::dram) return noc_address;
  a.address = emu::l1_offset(a.address);
  return emu::encode(a);
}

void require_dataflow(std::string_view call) {
  if (emu::current_processor() == emu::Processor::trisc) {
    emu::raise(FaultKind::bad_call, "{} is a dataflow call; TRISC has no NoC access", call);
  }
}

// A copy the kernel reads through a pointer: one past the last arg stays addressable (a kernel may
// form the end pointer), and the copy keeps its address for the whole launch.
uint32_t* arg_copy(std::vector<uint32_t>& copy, bool& copied, const std::vector<uint32_t>& args, uint32_t index,
                   std::string_view call, std::string_view what) {
  if (!copied) {
    copy = args;
    copy.push_back(0);
    copied = true;
  }
  if (index > args.size()) {
    emu::raise(FaultKind::missing_arg, "{}({}): the kernel has {} {} on core {}", call, index, args.size(), what,
               emu::core_name(emu::my_core()));
  }
  return copy.data() + index;
}

// After this many polls in a row that found a CB unchanged and not ready, the kernel is taken to
// spin on a condition nothing will make true.
constexpr uint64_t kIdlePollLimit = uint64_t(1) << 22;

}  // namespace

uint32_t my_x() { return emu::my_core().x; }
uint32_t my_y() { return emu::my_core().y; }

uint32_t arg(uint32_t index) { return emu::get_arg_val(index); }
uint32_t common_arg(uint32_t index) {
  const uint32_t value = emu::get_common_arg_val(index);
  return emu::current().kernel->l1_pointer_common_args.count(index) ? emu::kernel_l1_address(value) : value;
}

uint32_t* arg_address(uint32_t index) {
  emu::ProcessorRuntime::DialectState& s = dialect_state();
  return arg_copy(s.args, s.args_copied, core_args(), index, "get_arg_addr", "runtime args");
}

uint32_t* common_arg_address(uint32_t index) {
  emu::ProcessorRuntime::DialectState& s = dialect_state();
  return arg_copy(s.common_args, s.common_args_copied, common_args(), index, "get_common_arg_addr",
                  "common runtime args");
}

void cb_reserve_back(uint32_t cb, uint32_t pages) { emu::cb_reserve_back(cb, pages); }
void cb_push_back(uint32_t cb, uint32_t pages) { emu::cb_push_back(cb, pages); }
void cb_wait_front(uint32_t cb, uint32_t pages) { emu::cb_wait_front(cb, pages); }
void cb_pop_front(uint32_t cb, uint32_t pages) { emu::cb_pop_front(cb, pages); }

// A poll that says no lets the other processors run once before the kernel polls again.
uint32_t cb_pages_ready(uint32_t id, uint32_t pages, uint32_t at_front) {
  const std::string_view call = at_front ? "cb_pages_available_at_front" : "cb_pages_reservable_at_back";
  const emu::CbRuntime& cb = running_cb(id, call);
  if (at_front ? cb.occupied() >= pages : cb.free_pages() >= pages) {
    dialect_state().idle_polls = 0;
    return 1;
  }
  emu::ProcessorRuntime::DialectState& s = dialect_state();
  const uint64_t mark = uint64_t(cb.pushed) << 32 | cb.popped;
  s.idle_polls = mark == s.poll_mark ? s.idle_polls + 1 : 1;
  s.poll_mark = mark;
  if (s.idle_polls >= kIdlePollLimit) {
    emu::raise(FaultKind::deadlock, "{}(cb {}, {}) answered no {} times in a row while nothing changed: {}", call,
               cb.name(), pages, s.idle_polls, cb.state());
  }
  emu::wait_until([passes = 0]() mutable { return passes++ > 0; }, [call] { return std::string(call) + " (polling)"; });
  return 0;
}

uint32_t get_write_ptr(uint32_t cb) { return emu::kernel_l1_address(emu::get_write_ptr(cb)); }
uint32_t get_read_ptr(uint32_t cb) { return emu::kernel_l1_address(emu::get_read_ptr(cb)); }

uint32_t get_tile_size(uint32_t id) { return emu::cb_tile_bytes(*running_cb(id, "get_tile_size").config); }

// The CB's sizes and where its pointers stand, as LocalCBInterface holds them.
void get_cb_interface(uint32_t id, ditmk_cb_interface* out) {
  const emu::CbRuntime& cb = running_cb(id, "get_local_cb_interface");
  const emu::CbConfig& config = *cb.config;
  out->fifo_size = config.total_bytes;
  out->fifo_limit = emu::kernel_l1_address(config.address + config.total_bytes);
  out->fifo_page_size = config.page_bytes;
  out->fifo_num_pages = cb.pages;
  out->fifo_rd_ptr = emu::kernel_l1_address(emu::get_read_ptr(id));
  out->fifo_wr_ptr = emu::kernel_l1_address(emu::get_write_ptr(id));
}

// tt-metal's DataFormat values of the emulator's tile formats.
uint32_t get_dataformat(uint32_t id) {
  const emu::CbConfig& config = *running_cb(id, "get_dataformat").config;
  switch (config.integer) {
    case emu::IntegerFormat::int32: return 8;    // Int32
    case emu::IntegerFormat::uint16: return 9;   // UInt16
    case emu::IntegerFormat::uint32: return 24;  // UInt32
    case emu::IntegerFormat::uint8: return 30;   // UInt8
    case emu::IntegerFormat::none: break;
  }
  switch (config.format) {
    case TileFormat::fp32: return 0;    // Float32
    case TileFormat::bf16: return 5;    // Float16_b
    case TileFormat::bfp8_b: return 6;  // Bfp8_b
  }
  return 0xff;  // Invalid
}

uint64_t noc_addr(uint32_t x, uint32_t y, uint32_t l1_address) {
  return emu::get_noc_addr(x, y, emu::l1_offset(l1_address));
}

// tt-metal kernels give a NoC 1 rectangle from its end corner (they swap start and end there); the
// emulator's multicast address runs from the low corner.
uint64_t noc_multicast_addr(uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end, uint32_t l1_address,
                            uint32_t noc) {
  const bool reversed = noc == 1;
  if (reversed ? (x_start < x_end || y_start < y_end) : (x_start > x_end || y_start > y_end)) {
    emu::raise(FaultKind::multicast_target,
               "get_noc_multicast_addr({}, {}, {}, {}): on NoC {} a rectangle runs from its {} corner ({}), as "
               "tt-metal kernels give it",
               x_start, y_start, x_end, y_end, noc, reversed ? "end" : "start",
               reversed ? "x_start >= x_end, y_start >= y_end" : "x_start <= x_end, y_start <= y_end");
  }
  const uint32_t address = emu::l1_offset(l1_address);
  return reversed ? emu::get_noc_multicast_addr(x_end, y_end, x_start, y_start, address)
                  : emu::get_noc_multicast_addr(x_start, y_start, x_end, y_end, address);
}

uint64_t dram_noc_addr(uint32_t bank, uint32_t bank_address) {
  return emu::get_noc_addr_from_bank_id(bank, bank_address);
}

// Bank addresses come from the host (an L1 buffer's address is the same offset on every bank).
uint64_t l1_bank_noc_addr(uint32_t bank, uint32_t bank_address) {
  return emu::get_noc_addr_from_l1_bank(bank, emu::l1_offset(bank_address), "an L1-interleaved page address");
}

void noc_async_read(uint64_t src_noc_addr, uint32_t dst_l1, uint32_t size) {
  emu::noc_async_read(with_l1_offset(src_noc_addr), emu::l1_offset(dst_l1), size);
}

void noc_async_write(uint32_t src_l1, uint64_t dst_noc_addr, uint32_t size) {
  emu::noc_async_write(emu::l1_offset(src_l1), with_l1_offset(dst_noc_addr), size);
}

void noc_set_state(uint32_t write, uint64_t noc_addr, uint32_t size) {
  require_dataflow(write ? "noc_async_write_set_state" : "noc_async_read_set_state");
  dialect_state().noc_state[write ? 1 : 0] = {with_l1_offset(noc_addr) & ~uint64_t(0xFFFFFFFF), size, true};
}

// The address within the endpoint the state named: the hardware keeps the endpoint's coordinates in
// the command buffer and takes only the low word from each call.
void noc_with_state(uint32_t write, uint32_t address, uint32_t l1, uint32_t size) {
  const std::string_view call = write ? "noc_async_write_with_state" : "noc_async_read_with_state";
  require_dataflow(call);
  const emu::ProcessorRuntime::DialectState::NocState& state = dialect_state().noc_state[write ? 1 : 0];
  if (!state.set) emu::raise(FaultKind::bad_call, "{} before its {}_set_state", call, write ? "write" : "read");
  const uint32_t bytes = size ? size : state.size;
  if (bytes == 0) {
    emu::raise(FaultKind::bad_call, "{}: no size, neither given nor set by the one-packet set_state", call);
  }
  const uint64_t remote = with_l1_offset(state.endpoint | address);
  if (write) {
    emu::noc_async_write(emu::l1_offset(l1), remote, bytes);
  } else {
    emu::noc_async_read(remote, emu::l1_offset(l1), bytes);
  }
}

void noc_async_write_multicast(uint32_t src_l1, uint64_t dst_mcast_addr, uint32_t size, uint32_t num_dests,
                               uint32_t loopback) {
  if (loopback) {
    emu::noc_async_write_multicast_loopback_src(emu::l1_offset(src_l1), with_l1_offset(dst_mcast_addr), size,
                                                num_dests);
  } else {
    emu::noc_async_write_multicast(emu::l1_offset(src_l1), with_l1_offset(dst_mcast_addr), size, num_dests);
  }
}

// The emulator delivers a write when the writer's barrier says it landed; departure is not modelled
// apart from arrival, so a flush lands the writes too. Atomics land when issued.
void noc_barrier(uint32_t which) {
  switch (which) {
    case DITMK_NOC_READ_BARRIER: emu::noc_async_read_barrier(); return;
    case DITMK_NOC_WRITE_BARRIER:
    case DITMK_NOC_WRITES_FLUSHED: emu::noc_async_write_barrier(); return;
    case DITMK_NOC_ATOMIC_BARRIER: require_dataflow("noc_async_atomic_barrier"); return;
    case DITMK_NOC_FULL_BARRIER:
      emu::noc_async_read_barrier();
      emu::noc_async_write_barrier();
      return;
  }
  emu::raise(FaultKind::bad_call, "noc barrier {}: no such barrier in device ABI {}", which, DITMK_DEVICE_ABI_VERSION);
}

uint32_t get_semaphore(uint32_t id) { return emu::kernel_l1_address(emu::get_semaphore(id)); }

void noc_semaphore_wait(uint32_t sem_l1, uint32_t value, uint32_t at_least) {
  if (at_least) {
    emu::noc_semaphore_wait_min(emu::l1_offset(sem_l1), value);
  } else {
    emu::noc_semaphore_wait(emu::l1_offset(sem_l1), value);
  }
}

void noc_semaphore_set(uint32_t sem_l1, uint32_t value) { emu::noc_semaphore_set(emu::l1_offset(sem_l1), value); }

void noc_semaphore_inc(uint64_t sem_noc_addr, uint32_t increment) {
  emu::noc_semaphore_inc(with_l1_offset(sem_noc_addr), increment);
}

// The loopback form: the other cores of the rectangle as the plain multicast does, then the sender's
// own word at the destination address.
void noc_semaphore_set_multicast(uint32_t src_sem_l1, uint64_t dst_mcast_addr, uint32_t num_dests, uint32_t loopback) {
  const uint32_t src = emu::l1_offset(src_sem_l1);
  const uint64_t dst = with_l1_offset(dst_mcast_addr);
  if (!loopback) {
    emu::noc_semaphore_set_multicast(src, dst, num_dests);
    return;
  }
  constexpr std::string_view call = "noc_semaphore_set_multicast_loopback_src";
  const emu::NocAddress a = emu::decode(dst);
  const emu::CoreCoord me = emu::my_core();
  const bool inside =
      a.target == emu::NocTarget::multicast && a.x0 <= me.x && me.x <= a.x1 && a.y0 <= me.y && me.y <= a.y1;
  if (!inside || num_dests == 0) {
    emu::raise(FaultKind::multicast_target,
               "{}: the sender {} must lie inside the rectangle and num_dests ({}) must count it", call,
               emu::core_name(me), num_dests);
  }
  emu::noc_semaphore_set_multicast(src, dst, num_dests - 1);
  uint32_t value;
  std::memcpy(&value, emu::l1_bytes(emu::core_index(me), src), sizeof(value));
  emu::noc_semaphore_set(a.address, value);
}

}  // namespace ditmk::tt::dialect::abi
