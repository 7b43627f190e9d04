#pragma once
// Circular buffers of the running core, shared by data-movement and compute kernels (tt-metal
// declares them in both APIs). The non-blocking polls let the other processors run once when the
// answer is no, so a kernel that loops on them still makes progress on the cooperative emulator.
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"

FORCE_INLINE void cb_reserve_back(int32_t operand, int32_t num_pages) {
  ditmk::abi->cb_reserve_back(uint32_t(operand), uint32_t(num_pages));
}

FORCE_INLINE void cb_push_back(int32_t operand, int32_t num_pages) {
  ditmk::abi->cb_push_back(uint32_t(operand), uint32_t(num_pages));
}

FORCE_INLINE void cb_wait_front(int32_t operand, int32_t num_pages) {
  ditmk::abi->cb_wait_front(uint32_t(operand), uint32_t(num_pages));
}

FORCE_INLINE void cb_pop_front(int32_t operand, int32_t num_pages) {
  ditmk::abi->cb_pop_front(uint32_t(operand), uint32_t(num_pages));
}

FORCE_INLINE bool cb_pages_reservable_at_back(int32_t operand, int32_t num_pages) {
  return ditmk::abi->cb_pages_ready(uint32_t(operand), uint32_t(num_pages), 0) != 0;
}

FORCE_INLINE bool cb_pages_available_at_front(int32_t operand, int32_t num_pages) {
  return ditmk::abi->cb_pages_ready(uint32_t(operand), uint32_t(num_pages), 1) != 0;
}

// Window addresses of the page the producer fills next and the page the consumer reads next.
FORCE_INLINE uint32_t get_write_ptr(uint32_t operand) { return ditmk::abi->get_write_ptr(operand); }
FORCE_INLINE uint32_t get_read_ptr(uint32_t operand) { return ditmk::abi->get_read_ptr(operand); }
