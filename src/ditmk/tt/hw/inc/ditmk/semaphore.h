#pragma once
// Semaphores: L1 words at the addresses get_semaphore(id) returns. A kernel must wait on one with
// noc_semaphore_wait / noc_semaphore_wait_min, never by spinning on the word itself: the emulator
// runs its processors cooperatively, and a spinning kernel never lets the one that would release
// it run.
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk/noc.h"

enum class ProgrammableCoreType { TENSIX = 0, ACTIVE_ETH = 1, IDLE_ETH = 2 };

template <ProgrammableCoreType type = ProgrammableCoreType::TENSIX>
FORCE_INLINE uintptr_t get_semaphore(uint32_t semaphore_id) {
  static_assert(type == ProgrammableCoreType::TENSIX, "the emulated chip has Tensix cores only");
  return ditmk::abi->get_semaphore(semaphore_id);
}

FORCE_INLINE void noc_semaphore_wait(volatile tt_l1_ptr uint32_t* sem_addr, uint32_t val) {
  ditmk::abi->noc_semaphore_wait(ditmk::detail::l1_address(sem_addr), val, 0);
}

FORCE_INLINE void noc_semaphore_wait_min(volatile tt_l1_ptr uint32_t* sem_addr, uint32_t val) {
  ditmk::abi->noc_semaphore_wait(ditmk::detail::l1_address(sem_addr), val, 1);
}

FORCE_INLINE void noc_semaphore_set(volatile tt_l1_ptr uint32_t* sem_addr, uint32_t val) {
  ditmk::abi->noc_semaphore_set(ditmk::detail::l1_address(sem_addr), val);
}

template <bool posted = false>
FORCE_INLINE void noc_semaphore_inc(uint64_t addr, uint32_t incr, uint8_t noc_id = noc_index,
                                    uint8_t vc = NOC_UNICAST_WRITE_VC) {
  (void)noc_id, (void)vc;
  ditmk::abi->noc_semaphore_inc(addr, incr);
}

// A 4-byte write of a local word to a remote one: it lands at the write barrier.
inline void noc_semaphore_set_remote(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint8_t noc = noc_index) {
  (void)noc;
  ditmk::abi->noc_async_write(src_local_l1_addr, dst_noc_addr, 4);
}

// The local semaphore's value to that address on every core of the rectangle except the sender.
inline void noc_semaphore_set_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t num_dests,
                                        bool linked = false, uint8_t noc = noc_index,
                                        uint8_t vc = NOC_MULTICAST_WRITE_VC) {
  (void)linked, (void)noc, (void)vc;
  ditmk::abi->noc_semaphore_set_multicast(src_local_l1_addr, dst_noc_addr_multicast, num_dests, 0);
}

// As above, the sender included; num_dests counts it.
inline void noc_semaphore_set_multicast_loopback_src(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                     uint32_t num_dests, bool linked = false, uint8_t noc = noc_index) {
  (void)linked, (void)noc;
  ditmk::abi->noc_semaphore_set_multicast(src_local_l1_addr, dst_noc_addr_multicast, num_dests, 1);
}
