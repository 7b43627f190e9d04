#pragma once
// Semaphore: tt-metal's object over one of the program's semaphores, a word at the same L1 address on
// every core (ditmk/semaphore.h). Local calls read and write the running core's word: up adds,
// down waits until the word reaches the value and takes it away, wait / wait_min block as
// noc_semaphore_wait / noc_semaphore_wait_min do. The NoC calls reach other cores' words: up(noc, x,
// y, n) is an atomic increment there, set_multicast / relay_* copy a local word out, inc_multicast
// increments every core of a rectangle but the sender.
//
// A kernel runs until it waits, so a read-modify-write of the local word is not interleaved with
// another processor's. Compute kernels' semaphores (the Tensix sync unit) are not modelled.
#include <stdint.h>

#include "api/dataflow/semaphore_binding_token.h"
#include "ditmk/abi.h"
#include "ditmk/noc.h"
#include "ditmk/not_modelled.h"
#include "ditmk/semaphore.h"
#ifndef COMPILE_FOR_TRISC
#include "api/dataflow/noc.h"
#endif

template <ProgrammableCoreType core_type = ProgrammableCoreType::TENSIX>
class Semaphore {
  template <ProgrammableCoreType>
  friend class Semaphore;

 public:
  explicit Semaphore(SemaphoreBindingToken token) : Semaphore(token.id) {
    if (token.scope != SemScope::LOCAL_NONATOMIC) {
      ditmk::detail::not_modelled("Semaphore with a scope other than LOCAL_NONATOMIC");
    }
  }
  explicit Semaphore(uint32_t semaphore_id) : address_(uint32_t(get_semaphore<core_type>(semaphore_id))) {
#ifdef COMPILE_FOR_TRISC
    static_assert(semaphore_detail::always_false<core_type>,
                  "a compute kernel's Semaphore is the Tensix sync unit's, which the emulator does not model");
#endif
  }

  void up(uint32_t value) { ditmk::abi->noc_semaphore_set(address_, this->value() + value); }
  void down(uint32_t value) {
    noc_semaphore_wait_min(word(), value);
    ditmk::abi->noc_semaphore_set(address_, this->value() - value);
  }
  void wait(uint32_t value) const { noc_semaphore_wait(word(), value); }
  void wait_min(uint32_t value) const { noc_semaphore_wait_min(word(), value); }
  void set(uint32_t value) { noc_semaphore_set(word(), value); }
  uint32_t value() const { return *word(); }

#ifndef COMPILE_FOR_TRISC
  // Adds `value` to this semaphore's word on core (noc_x, noc_y): an atomic, done at the atomic barrier.
  void up(const Noc& noc, uint32_t noc_x, uint32_t noc_y, uint32_t value, uint8_t vc = NOC_UNICAST_WRITE_VC) {
    noc_semaphore_inc(get_noc_addr(noc_x, noc_y, address_, noc.get_noc_id()), value, noc.get_noc_id(), vc);
  }

  // This word's value to dst_sem's word on core (noc_x, noc_y): a 4-byte write.
  template <ProgrammableCoreType dst_core_type = core_type>
  void relay_unicast(const Noc& noc, const Semaphore<dst_core_type>& dst_sem, uint32_t noc_x, uint32_t noc_y) {
    noc_semaphore_set_remote(address_, get_noc_addr(noc_x, noc_y, dst_sem.address_, noc.get_noc_id()),
                             noc.get_noc_id());
  }

  template <NocOptions opts = NocOptions::DEFAULT>
  void set_multicast(const Noc& noc, uint32_t noc_x_start, uint32_t noc_y_start, uint32_t noc_x_end,
                     uint32_t noc_y_end, uint32_t num_dests, bool linked = false) {
    relay_multicast<opts>(noc, *this, noc_x_start, noc_y_start, noc_x_end, noc_y_end, num_dests, linked);
  }

  template <NocOptions opts = NocOptions::DEFAULT, ProgrammableCoreType dst_core_type = core_type>
  void relay_multicast(const Noc& noc, const Semaphore<dst_core_type>& dst_sem, uint32_t noc_x_start,
                       uint32_t noc_y_start, uint32_t noc_x_end, uint32_t noc_y_end, uint32_t num_dests,
                       bool linked = false) {
    const uint64_t multicast = get_noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end,
                                                      dst_sem.address_, noc.get_noc_id());
    if constexpr (has_flag(opts, NocOptions::MCAST_INCL_SRC)) {
      noc_semaphore_set_multicast_loopback_src(address_, multicast, num_dests, linked, noc.get_noc_id());
    } else {
      noc_semaphore_set_multicast(address_, multicast, num_dests, linked, noc.get_noc_id());
    }
  }

  // One atomic increment per core of the rectangle but the sender; num_dests must count them.
  void inc_multicast(const Noc& noc, uint32_t noc_x_start, uint32_t noc_y_start, uint32_t noc_x_end,
                     uint32_t noc_y_end, uint32_t value, uint32_t num_dests) {
    const uint32_t x0 = noc_x_start < noc_x_end ? noc_x_start : noc_x_end;
    const uint32_t x1 = noc_x_start < noc_x_end ? noc_x_end : noc_x_start;
    const uint32_t y0 = noc_y_start < noc_y_end ? noc_y_start : noc_y_end;
    const uint32_t y1 = noc_y_start < noc_y_end ? noc_y_end : noc_y_start;
    uint32_t others = 0;
    for (uint32_t y = y0; y <= y1; ++y) {
      for (uint32_t x = x0; x <= x1; ++x) others += noc.is_local_bank(x, y) ? 0 : 1;
    }
    if (others != num_dests) {
      ditmk::detail::fault(DITMK_FAULT_BAD_CALL, ditmk::detail::Message()
                                                     << "Semaphore::inc_multicast: num_dests " << num_dests
                                                     << " but the rectangle holds " << others
                                                     << " cores besides the sender");
    }
    for (uint32_t y = y0; y <= y1; ++y) {
      for (uint32_t x = x0; x <= x1; ++x) {
        if (!noc.is_local_bank(x, y)) up(noc, x, y, value);
      }
    }
  }
#endif

 private:
  volatile tt_l1_ptr uint32_t* word() const {
    return reinterpret_cast<volatile tt_l1_ptr uint32_t*>(uintptr_t(address_));
  }

  uint32_t address_;  // the word's window address on the running core
};
