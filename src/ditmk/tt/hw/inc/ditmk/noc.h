#pragma once
// NoC addresses and transfers of a data-movement kernel, as tt-metal's dataflow API declares them.
// The emulator models what each call means: a read takes its source when issued and lands at the
// read barrier, a write lands at the write barrier (docs/tt-dialect.md). Arguments tt-metal
// uses to pick hardware resources (the noc of each call, virtual channels, linked transactions,
// max_page_size, tracing) are accepted and ignored: every transfer rides the kernel's own NoC.
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk/noc_index.h"

// Blackhole's values of the constants kernels read.
#ifndef NOC_MAX_BURST_SIZE
#define NOC_MAX_BURST_SIZE 16384
#endif
#ifndef NUM_DRAM_BANKS
#define NUM_DRAM_BANKS 8
#endif
// One L1 bank per worker core of the emulated 11x10 grid (tt/emu/l1_buffers.hpp's kNumL1Banks).
#ifndef NUM_L1_BANKS
#define NUM_L1_BANKS 110
#endif
#ifndef DRAM_ALIGNMENT
#define DRAM_ALIGNMENT 64
#endif
#ifndef L1_ALIGNMENT
#define L1_ALIGNMENT 16
#endif
#ifndef NOC_UNICAST_WRITE_VC
#define NOC_UNICAST_WRITE_VC 1
#endif
#ifndef NOC_MULTICAST_WRITE_VC
#define NOC_MULTICAST_WRITE_VC 4
#endif

namespace ditmk::detail {

// The 32-bit L1 address a kernel holds as a number or a pointer.
FORCE_INLINE uint32_t l1_address(uint32_t address) { return address; }
FORCE_INLINE uint32_t l1_address(const volatile void* pointer) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(pointer));
}

// tt-metal declares my_x/my_y as arrays indexed by NoC; in the emulator both NoCs see the logical
// coordinates.
struct CoreCoordinate {
  bool y;
  FORCE_INLINE uint8_t operator[](uint32_t) const {
    return static_cast<uint8_t>(y ? ditmk::abi->my_y() : ditmk::abi->my_x());
  }
};

}  // namespace ditmk::detail

inline constexpr ditmk::detail::CoreCoordinate my_x{false};
inline constexpr ditmk::detail::CoreCoordinate my_y{true};

namespace ditmk::detail {
// A NoC address's high word names its endpoint, the low word is the address there: a local address
// names the running core.
FORCE_INLINE bool noc_addr_is_local(uint64_t noc_addr, uint8_t noc) {
  return (noc_addr >> 32) == (abi->noc_addr(my_x[noc], my_y[noc], 0) >> 32);
}
}  // namespace ditmk::detail

inline uint8_t get_absolute_logical_x() { return my_x[noc_index]; }
inline uint8_t get_absolute_logical_y() { return my_y[noc_index]; }
inline uint8_t get_relative_logical_x() { return my_x[noc_index]; }
inline uint8_t get_relative_logical_y() { return my_y[noc_index]; }

FORCE_INLINE uint64_t get_noc_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc = noc_index) {
  (void)noc;
  return ditmk::abi->noc_addr(noc_x, noc_y, addr);
}

// An L1 address of the running core.
FORCE_INLINE uint64_t get_noc_addr(uint32_t addr, uint8_t noc = noc_index) {
  return get_noc_addr(my_x[noc], my_y[noc], addr, noc);
}

// On NoC 1 a rectangle runs from its end corner: tt-metal kernels pass (x_end, y_end) first there.
FORCE_INLINE uint64_t get_noc_multicast_addr(uint32_t noc_x_start, uint32_t noc_y_start, uint32_t noc_x_end,
                                             uint32_t noc_y_end, uint32_t addr, uint8_t noc = noc_index) {
  return ditmk::abi->noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end, addr, noc);
}

template <bool DRAM>
FORCE_INLINE uint64_t get_noc_addr_from_bank_id(uint32_t bank_id, uint32_t bank_address_offset,
                                                uint8_t noc = noc_index) {
  (void)noc;
  if constexpr (!DRAM) return ditmk::abi->l1_bank_noc_addr(bank_id, bank_address_offset);
  return ditmk::abi->dram_noc_addr(bank_id, bank_address_offset);
}

template <bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read_one_packet(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size,
                                            uint8_t noc = noc_index, uint32_t read_req_vc = NOC_UNICAST_WRITE_VC) {
  (void)noc, (void)read_req_vc;
  ditmk::abi->noc_async_read(src_noc_addr, dst_local_l1_addr, size);
}

template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true>
inline void noc_async_read(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size, uint8_t noc = noc_index,
                           uint32_t read_req_vc = NOC_UNICAST_WRITE_VC) {
  (void)noc, (void)read_req_vc;
  ditmk::abi->noc_async_read(src_noc_addr, dst_local_l1_addr, size);
}

template <bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write_one_packet(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size,
                                             uint8_t noc = noc_index, uint32_t vc = NOC_UNICAST_WRITE_VC) {
  (void)noc, (void)vc;
  ditmk::abi->noc_async_write(src_local_l1_addr, dst_noc_addr, size);
}

template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true, bool posted = false>
inline void noc_async_write(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size, uint8_t noc = noc_index,
                            uint32_t vc = NOC_UNICAST_WRITE_VC) {
  (void)noc, (void)vc;
  ditmk::abi->noc_async_write(src_local_l1_addr, dst_noc_addr, size);
}

// To every core of the rectangle except the sender; num_dests must count them.
template <bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_write_multicast_one_packet(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                       uint32_t size, uint32_t num_dests, bool linked = false,
                                                       uint8_t noc = noc_index) {
  (void)linked, (void)noc;
  ditmk::abi->noc_async_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, 0);
}

template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1>
inline void noc_async_write_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t size,
                                      uint32_t num_dests, bool linked = false, uint8_t noc = noc_index,
                                      uint8_t vc = NOC_MULTICAST_WRITE_VC) {
  (void)linked, (void)noc, (void)vc;
  ditmk::abi->noc_async_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, 0);
}

// As above, the sender included; num_dests counts it.
inline void noc_async_write_multicast_loopback_src(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                   uint32_t size, uint32_t num_dests, bool linked = false,
                                                   uint8_t noc = noc_index) {
  (void)linked, (void)noc;
  ditmk::abi->noc_async_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, 1);
}

inline void noc_async_read_barrier(uint8_t noc = noc_index) {
  (void)noc;
  ditmk::abi->noc_barrier(DITMK_NOC_READ_BARRIER);
}

FORCE_INLINE void noc_async_write_barrier(uint8_t noc = noc_index) {
  (void)noc;
  ditmk::abi->noc_barrier(DITMK_NOC_WRITE_BARRIER);
}

// The emulator does not tell a write's departure from its arrival: flushed writes have landed.
FORCE_INLINE void noc_async_writes_flushed(uint8_t noc = noc_index) {
  (void)noc;
  ditmk::abi->noc_barrier(DITMK_NOC_WRITES_FLUSHED);
}

FORCE_INLINE void noc_async_posted_writes_flushed(uint8_t noc = noc_index) {
  (void)noc;
  ditmk::abi->noc_barrier(DITMK_NOC_WRITES_FLUSHED);
}

FORCE_INLINE void noc_async_atomic_barrier(uint8_t noc_idx = noc_index) {
  (void)noc_idx;
  ditmk::abi->noc_barrier(DITMK_NOC_ATOMIC_BARRIER);
}

FORCE_INLINE void noc_async_full_barrier(uint8_t noc_idx = noc_index) {
  (void)noc_idx;
  ditmk::abi->noc_barrier(DITMK_NOC_FULL_BARRIER);
}
