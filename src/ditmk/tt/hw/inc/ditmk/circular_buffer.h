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

// The unit of a LocalCBInterface's sizes and addresses: bytes in a data-movement kernel, 16-byte
// words in a compute kernel (tt-metal's TRISCs keep them shifted right by 4, the unit their LLK
// addresses L1 in; ttnn's kernel_lib shifts fifo_page_size back to compare it with a tile's bytes).
#if defined(COMPILE_FOR_TRISC)
constexpr uint32_t cb_addr_shift = 4;
#else
constexpr uint32_t cb_addr_shift = 0;
#endif

// tt-metal's per-CB bookkeeping, as kernels read it through get_local_cb_interface(cb): sizes in
// cb_addr_shift units and pages, and the window addresses (likewise) of the ring's end and of its
// read and write pages. The
// emulator owns the CB's state, so a kernel gets a snapshot taken at the call: it may read the
// fields (fifo_page_size for the bytes of one page, say) but not move the CB by writing them.
struct LocalCBInterface {
  uint32_t fifo_size;
  uint32_t fifo_limit;
  uint32_t fifo_page_size;
  uint32_t fifo_num_pages;
  uint32_t fifo_rd_ptr;
  uint32_t fifo_wr_ptr;
};

// A reference, as tt-metal's (ttnn's kernel_lib binds `auto& cb = get_local_cb_interface(id)`): to
// the CB's snapshot slot, refreshed by each call. Kernels run cooperatively and switch only inside a
// device call, so a slot read right after its call holds this core's CB. A write to a field (ttnn's
// matmul aligns an alias CB's read pointer so) lands in the slot only.
FORCE_INLINE LocalCBInterface& get_local_cb_interface(uint32_t cb_id) {
  static LocalCBInterface snapshots[64];
  ditmk_cb_interface cb;
  ditmk::abi->get_cb_interface(cb_id, &cb);
  LocalCBInterface& slot = snapshots[cb_id % 64];
  slot = LocalCBInterface{cb.fifo_size >> cb_addr_shift,   cb.fifo_limit >> cb_addr_shift,
                          cb.fifo_page_size >> cb_addr_shift, cb.fifo_num_pages,
                          cb.fifo_rd_ptr >> cb_addr_shift,   cb.fifo_wr_ptr >> cb_addr_shift};
  return slot;
}
