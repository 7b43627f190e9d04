#pragma once
// tt-metal's internal/tt-1xx/risc_common.h, the part with a meaning on the emulated chip: the NoC's
// sizes (noc/noc_parameters.h), the coordinate macros, the tile sizes in 16-byte words, the
// ring-buffer pointer helpers, zeroing an L1 buffer, and invalidate_l1_cache (cache.h). The
// register accesses (WRITE_REG, READ_REG, reg_read), the soft resets, the wall clock
// (get_timestamp, riscv_wait) and the instruction cache flush are not declared: the emulator has
// none of those registers, so a kernel that uses them does not compile here.
#include <stdint.h>

#include "internal/mod_div_lib.h"
#include "internal/risc_attribs.h"
#include "internal/tt-1xx/cache.h"
#include "noc/noc_parameters.h"

// A NoC coordinate as the kernel's NoC sees it. On the chip NoC 1 runs the other way round the
// torus, so these mirror a coordinate for it; the emulator's NoCs both see the logical
// coordinates (ditmk/noc.h), so a coordinate is itself on either.
#define NOC_X(x) (x)
#define NOC_Y(y) (y)
#define DYNAMIC_NOC_X(noc, x) (x)
#define DYNAMIC_NOC_Y(noc, y) (y)
#define NOC_X_PHYS_COORD(x) (x)
#define NOC_Y_PHYS_COORD(y) (y)

// A tile's size in 16-byte words with its header (and exponent section for the block formats).
#define TILE_WORD_2_BIT ((256 + 64 + 32) >> 4)
#define TILE_WORD_4_BIT ((512 + 64 + 32) >> 4)
#define TILE_WORD_8_BIT ((32 * 32 * 1 + 64 + 32) >> 4)
#define TILE_WORD_16_BIT ((32 * 32 * 2 + 32) >> 4)
#define TILE_WORD_32_BIT ((32 * 32 * 4 + 32) >> 4)

// Queue pointers that run over twice the queue's slots, so a full queue differs from an empty one.
inline uint32_t dram_io_incr_ptr(uint32_t curr_ptr, uint32_t incr, uint32_t buf_size_q_slots) {
  uint32_t next_ptr = curr_ptr + incr;
  if (next_ptr >= 2 * buf_size_q_slots) next_ptr -= 2 * buf_size_q_slots;
  return next_ptr;
}

FORCE_INLINE uint32_t dram_io_empty(uint32_t rd_ptr, uint32_t wr_ptr) { return rd_ptr == wr_ptr; }

// Whether a reader at local_rd_ptr has nothing left between the queue's read and write pointers.
FORCE_INLINE uint32_t dram_io_local_empty(uint32_t local_rd_ptr, uint32_t rd_ptr, uint32_t wr_ptr) {
  if (rd_ptr == wr_ptr) return true;
  const bool wraps_not = rd_ptr < wr_ptr && (local_rd_ptr < rd_ptr || local_rd_ptr >= wr_ptr);
  const bool wraps = rd_ptr > wr_ptr && wr_ptr <= local_rd_ptr && local_rd_ptr < rd_ptr;
  return wraps_not || wraps;
}

inline uint32_t dram_io_full(uint32_t rd_ptr, uint32_t wr_ptr, uint32_t buf_size_q_slots) {
  return wr_ptr - buf_size_q_slots == rd_ptr || rd_ptr - buf_size_q_slots == wr_ptr;
}

// A pointer into a ring of buf_size, moved forward or back with wrap-around.
FORCE_INLINE uint32_t buf_ptr_inc_wrap(uint32_t buf_ptr, uint32_t inc, uint32_t buf_size) {
  uint32_t result = buf_ptr + inc;
  if (result >= buf_size) result -= buf_size;
  return result;
}

FORCE_INLINE uint32_t buf_ptr_dec_wrap(uint32_t buf_ptr, uint32_t dec, uint32_t buf_size) {
  uint32_t result = buf_ptr;
  if (dec > result) result += buf_size;
  return result - dec;
}

inline void zero_l1_buf(tt_l1_ptr uint32_t* buf, uint32_t size_bytes) {
  for (uint32_t i = 0; i < size_bytes / 4; i++) buf[i] = 0;
}
