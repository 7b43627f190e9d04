#pragma once
// The device side of the emulator, dataflow half: tt-metal's kernel calls with their meanings, so a
// kernel written against it reads like device code. Valid only inside a kernel running on the emulated chip.
// Every call checks what tt-metal leaves unchecked and raises a fault (never returns bad data).
//
// Ordering model: a semaphore update is visible at once; a NoC transfer reads its source when it
// is issued and lands at the issuing processor's matching barrier (or when its kernel returns). A
// signal sent before the barrier of the data it announces is therefore caught as an unwritten read.
#include <cstdint>
#include <string_view>

#include "ditmk/tt/emu/chip.hpp"

namespace ditmk::tt::emu {

// Where the running kernel is.
Processor current_processor();
CoreCoord my_core();

// Arguments: per-core runtime args, common runtime args, named compile-time args (the role flags
// read as named args too: 1 on their cores, 0 elsewhere).
uint32_t get_arg_val(uint32_t index);
uint32_t get_common_arg_val(uint32_t index);
uint32_t get_named_compile_time_arg_val(std::string_view name);

// Circular buffers.
void cb_reserve_back(uint32_t cb, uint32_t pages);
void cb_push_back(uint32_t cb, uint32_t pages);
void cb_wait_front(uint32_t cb, uint32_t pages);
void cb_pop_front(uint32_t cb, uint32_t pages);
uint32_t get_write_ptr(uint32_t cb);
uint32_t get_read_ptr(uint32_t cb);

// Direct L1 access of the running core (what a kernel does through a pointer on the chip).
void l1_write(uint32_t address, const void* bytes, uint32_t size);
void l1_read(uint32_t address, void* bytes, uint32_t size);
// A data mover's own loads and stores of `bytes` of L1 through pointers, which the emulator cannot
// see: timed as l1_read / l1_write are.
void risc_l1_bytes(uint32_t bytes);

// NoC addresses: a core's L1, a rectangle of cores, a DRAM bank.
uint64_t get_noc_addr(uint32_t x, uint32_t y, uint32_t address);
uint64_t get_noc_multicast_addr(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, uint32_t address);
uint64_t get_noc_addr_from_bank_id(uint32_t bank, uint32_t bank_address);
// The core of L1 bank `bank` (l1_buffers.hpp) at `bank_address`; a bank that does not exist faults,
// naming `call`.
uint64_t get_noc_addr_from_l1_bank(uint32_t bank, uint32_t bank_address, std::string_view call);

// Pages of an interleaved DRAM buffer: page p in bank p % 8.
struct InterleavedAddrGen {
  uint32_t bank_base_address = 0;
  uint32_t page_size = 0;
  uint64_t get_noc_addr(uint32_t page, uint32_t offset = 0) const;
};

void noc_async_read(uint64_t src_noc_addr, uint32_t dst_l1, uint32_t size);
void noc_async_write(uint32_t src_l1, uint64_t dst_noc_addr, uint32_t size);
// To every core of the rectangle except the sender; num_dests must be that count.
void noc_async_write_multicast(uint32_t src_l1, uint64_t dst_mcast_addr, uint32_t size,
                               uint32_t num_dests);
// As above, the sender included.
void noc_async_write_multicast_loopback_src(uint32_t src_l1, uint64_t dst_mcast_addr, uint32_t size,
                                            uint32_t num_dests);
void noc_async_read_barrier();
void noc_async_write_barrier();

// Semaphores: addresses come from get_semaphore(id); values live in L1.
uint32_t get_semaphore(uint32_t id);
void noc_semaphore_wait(uint32_t sem_addr, uint32_t value);
void noc_semaphore_wait_min(uint32_t sem_addr, uint32_t value);
void noc_semaphore_set(uint32_t sem_addr, uint32_t value);
void noc_semaphore_inc(uint64_t sem_noc_addr, uint32_t increment);
// Copies the local semaphore at src_sem_addr to that address on every core of the rectangle
// except the sender.
void noc_semaphore_set_multicast(uint32_t src_sem_addr, uint64_t dst_mcast_addr, uint32_t num_dests);

}  // namespace ditmk::tt::emu
