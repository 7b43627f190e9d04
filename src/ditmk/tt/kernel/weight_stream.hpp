#pragma once
// NCRISC: this core's slice of an arena op, streamed from its DRAM bank. A block op comes K-block by
// K-block into the cb_w ring; a tail op is one fixed cb_tw transaction. The offsets table in the
// common args gives the op's region, op_geometry.hpp the core's slot inside it.
#include <stdint.h>

#include "core_context.hpp"

namespace ditmk::tt::kernel {

// The data movers' side: tt-metal's JIT builds the dataflow API for BRISC and NCRISC only.
#if !defined(COMPILE_FOR_TRISC)

inline void stream_block_op(const Ctx& x, uint32_t block, BlockOp op) {
  const OpSlice s = block_op_slice(x.dims, block, op, block_keys(x.schedule, block) != BlockKeys::self, x.c);
  const uint32_t address = x.io(Io::arena_stream) + x.op_offset(s.op_index) + s.offset;
  const uint64_t bank = get_noc_addr_from_bank_id<true>(s.bank, 0);
  for (uint32_t kb = 0; kb < s.k_tiles / kKBlockK; ++kb) {
    cb_reserve_back(x.cb_w, kKBlockPages);
    noc_async_read(bank + address + kb * s.k_block_bytes, get_write_ptr(x.cb_w), s.k_block_bytes);
    noc_async_read_barrier();
    cb_push_back(x.cb_w, kKBlockPages);
  }
}

inline void stream_tail_op(const Ctx& x, TailOp op) {
  const OpSlice s = tail_op_slice(x.dims, op, x.c);
  const uint32_t address = x.io(Io::arena_small) + x.op_offset(s.op_index) + s.offset;
  cb_reserve_back(x.cb_tw, kTailPages);
  noc_async_read(get_noc_addr_from_bank_id<true>(s.bank, 0) + address, get_write_ptr(x.cb_tw), s.bytes);
  noc_async_read_barrier();
  cb_push_back(x.cb_tw, kTailPages);
}

#endif  // !defined(COMPILE_FOR_TRISC)

}  // namespace ditmk::tt::kernel
