#pragma once
// tt-metal's stateful and transaction-id NoC calls. A *_set_state call fixes the remote endpoint (and
// for the one-packet forms the size) in the processor's command buffer; each *_with_state call then
// names only the address within that endpoint and the local L1 address, as the hardware takes only
// the low word of the remote address from it. The emulator keeps that state per processor and
// direction (ABI entries noc_set_state / noc_with_state). Transactions land at the barriers as
// the plain calls' do.
//
// Transaction ids are accepted and tag nothing: a barrier or flush for one id waits for all of the
// kernel's transfers of its kind, which covers the id's (a stronger wait than silicon's, never a
// weaker one).
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk/noc.h"
#include "ditmk/noc_index.h"

// Blackhole's command buffers of a data mover: the default of the calls that name one.
inline constexpr uint32_t write_cmd_buf = 0;
inline constexpr uint32_t read_cmd_buf = 1;

namespace ditmk::detail {
enum NocDirection : uint32_t { kNocRead = 0, kNocWrite = 1 };
}  // namespace ditmk::detail

template <bool use_vc = false>
FORCE_INLINE void noc_async_read_one_packet_set_state(uint64_t src_noc_addr, uint32_t size, const uint32_t vc = 0,
                                                      uint8_t noc = noc_index) {
  (void)vc, (void)noc;
  ditmk::abi->noc_set_state(ditmk::detail::kNocRead, src_noc_addr, size);
}

template <bool inc_num_issued = true, bool use_vc = false>
FORCE_INLINE void noc_async_read_one_packet_with_state(uint32_t src_local_l1_addr, uint32_t dst_local_l1_addr,
                                                       const uint32_t vc = 0, uint8_t noc = noc_index) {
  (void)vc, (void)noc;
  ditmk::abi->noc_with_state(ditmk::detail::kNocRead, src_local_l1_addr, dst_local_l1_addr, 0);
}

FORCE_INLINE void noc_async_read_set_state(uint64_t src_noc_addr, uint8_t noc = noc_index) {
  (void)noc;
  ditmk::abi->noc_set_state(ditmk::detail::kNocRead, src_noc_addr, 0);
}

template <bool inc_num_issued = true, bool skip_cmdbuf_chk = false>
FORCE_INLINE void noc_async_read_with_state(uint32_t src_local_l1_addr, uint32_t dst_local_l1_addr, uint32_t size,
                                            uint8_t noc = noc_index) {
  (void)noc;
  ditmk::abi->noc_with_state(ditmk::detail::kNocRead, src_local_l1_addr, dst_local_l1_addr, size);
}

template <bool posted = false>
FORCE_INLINE void noc_async_write_one_packet_set_state(uint64_t dst_noc_addr, uint32_t size, uint8_t noc = noc_index,
                                                       uint8_t vc = NOC_UNICAST_WRITE_VC) {
  (void)noc, (void)vc;
  ditmk::abi->noc_set_state(ditmk::detail::kNocWrite, dst_noc_addr, size);
}

template <bool posted = false>
FORCE_INLINE void noc_async_write_one_packet_with_state(uint32_t src_local_l1_addr, uint32_t dst_local_l1_addr,
                                                        uint8_t noc = noc_index) {
  (void)noc;
  ditmk::abi->noc_with_state(ditmk::detail::kNocWrite, dst_local_l1_addr, src_local_l1_addr, 0);
}

template <bool posted = false>
FORCE_INLINE void noc_async_write_set_state(uint64_t dst_noc_addr, uint8_t noc = noc_index,
                                            uint8_t vc = NOC_UNICAST_WRITE_VC) {
  (void)noc, (void)vc;
  ditmk::abi->noc_set_state(ditmk::detail::kNocWrite, dst_noc_addr, 0);
}

template <bool posted = false, bool update_counter = true, bool skip_cmdbuf_chk = false>
FORCE_INLINE void noc_async_write_with_state(uint32_t src_local_l1_addr, uint32_t dst_local_l1_addr, uint32_t size,
                                             uint8_t noc = noc_index) {
  (void)noc;
  ditmk::abi->noc_with_state(ditmk::detail::kNocWrite, dst_local_l1_addr, src_local_l1_addr, size);
}

FORCE_INLINE void noc_async_read_set_trid(uint32_t trid = 0, uint8_t noc = noc_index) { (void)trid, (void)noc; }
FORCE_INLINE void noc_async_write_set_trid(uint32_t trid = 0, uint8_t noc = noc_index) { (void)trid, (void)noc; }

// The source is src_base_addr + src_addr at the endpoint, the size the one-packet state's.
template <bool skip_ptr_update = false, bool skip_cmdbuf_chk = false>
FORCE_INLINE void noc_async_read_one_packet_with_state_with_trid(uint32_t src_base_addr, uint32_t src_addr,
                                                                 uint32_t dest_addr, uint32_t trid = 0,
                                                                 uint8_t noc = noc_index) {
  (void)trid, (void)noc;
  ditmk::abi->noc_with_state(ditmk::detail::kNocRead, src_base_addr + src_addr, dest_addr, 0);
}

FORCE_INLINE void noc_async_read_barrier_with_trid(uint32_t trid, uint8_t noc = noc_index) {
  (void)trid, (void)noc;
  ditmk::abi->noc_barrier(DITMK_NOC_READ_BARRIER);
}

template <bool update_counter = true, bool posted = false>
FORCE_INLINE void noc_async_write_one_packet_with_trid(uint32_t src_local_l1_addr, uint64_t dst_noc_addr,
                                                       uint32_t size, uint32_t trid, uint8_t cmd_buf = write_cmd_buf,
                                                       uint8_t noc = noc_index, uint8_t vc = NOC_UNICAST_WRITE_VC) {
  (void)trid, (void)cmd_buf, (void)noc, (void)vc;
  ditmk::abi->noc_async_write(src_local_l1_addr, dst_noc_addr, size);
}

template <bool posted = false>
FORCE_INLINE void noc_async_write_one_packet_with_trid_set_state(uint64_t dst_noc_addr, uint8_t cmd_buf = write_cmd_buf,
                                                                 uint8_t noc = noc_index,
                                                                 uint8_t vc = NOC_UNICAST_WRITE_VC) {
  (void)cmd_buf, (void)noc, (void)vc;
  ditmk::abi->noc_set_state(ditmk::detail::kNocWrite, dst_noc_addr, 0);
}

template <bool update_counter = true, bool posted = false>
FORCE_INLINE void noc_async_write_one_packet_with_trid_with_state(uint32_t src_local_l1_addr,
                                                                  uint32_t dst_local_l1_addr, uint32_t size,
                                                                  uint32_t trid, uint8_t cmd_buf = write_cmd_buf,
                                                                  uint8_t noc = noc_index) {
  (void)trid, (void)cmd_buf, (void)noc;
  ditmk::abi->noc_with_state(ditmk::detail::kNocWrite, dst_local_l1_addr, src_local_l1_addr, size);
}

FORCE_INLINE void noc_async_write_barrier_with_trid(uint32_t trid, uint8_t noc = noc_index) {
  (void)trid, (void)noc;
  ditmk::abi->noc_barrier(DITMK_NOC_WRITE_BARRIER);
}

FORCE_INLINE void noc_async_write_flushed_with_trid(uint32_t trid, uint8_t noc = noc_index) {
  (void)trid, (void)noc;
  ditmk::abi->noc_barrier(DITMK_NOC_WRITES_FLUSHED);
}
