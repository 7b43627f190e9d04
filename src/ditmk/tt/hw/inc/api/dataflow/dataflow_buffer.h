#pragma once
// DataflowBuffer: tt-metal's object over one circular buffer of the running core (on Blackhole a
// DataflowBuffer is a CB, an entry a page), for data-movement and compute kernels alike. Its flow
// calls are the CB's (ditmk/circular_buffer.h); its sizes and pointers are the CB's interface as
// get_local_cb_interface reads it. In a data-movement kernel it is also a NoC endpoint: the source at
// its read pointer, the destination at its write pointer, {.offset_bytes = n} bytes further on.
#include <stdint.h>

#include "api/dataflow/dfb_access.h"
#include "api/dataflow/dfb_binding_token.h"
#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk/cb_format.h"
#include "ditmk/circular_buffer.h"
#include "hostdevcommon/kernel_structs.h"
#ifndef COMPILE_FOR_TRISC
#include "api/dataflow/noc.h"
#include "ditmk/cb_endpoint.h"
// 0.81.1 brings the TensorAccessor endpoint in with the buffer types (its DRAM zeroing uses it).
#include "api/tensor/noc_traits.h"
#endif

class DataflowBuffer {
 public:
  using DFBInterface = LocalCBInterface;

  DataflowBuffer(uint16_t logical_dfb_id) : logical_dfb_id_(logical_dfb_id) {}
  // From a Metal 2.0 binding token (dfb::<name>).
  template <dfb::AccessPattern Pap, dfb::AccessPattern Cap>
  DataflowBuffer(DFBBindingToken<Pap, Cap> token) : logical_dfb_id_(uint16_t(uint32_t(token))) {}

  uint16_t get_id() const { return logical_dfb_id_; }
  uint32_t get_entry_size() const { return interface().fifo_page_size << cb_addr_shift; }
  uint32_t get_stride_size() const { return interface().fifo_page_size << cb_addr_shift; }
  uint32_t get_total_num_entries() const { return interface().fifo_num_pages; }
  uint32_t get_total_size_bytes() const { return interface().fifo_size << cb_addr_shift; }
  uint32_t get_local_num_entries() const { return get_total_num_entries(); }
  uint32_t get_local_size_bytes() const { return get_total_size_bytes(); }
  uint32_t get_ring_span_bytes() const { return get_total_size_bytes(); }
  uint32_t get_ring_span_num_entries() const { return get_total_num_entries(); }
  // One processor produces and one consumes each entry on Blackhole.
  uint16_t get_producer_share() const { return 1; }
  uint16_t get_consumer_share() const { return 1; }
  uint16_t get_producer_stride_tiles() const { return 1; }
  uint16_t get_consumer_stride_tiles() const { return 1; }

  void reserve_back(uint16_t num_entries) { cb_reserve_back(logical_dfb_id_, num_entries); }
  void push_back(uint16_t num_entries) { cb_push_back(logical_dfb_id_, num_entries); }
  void wait_front(uint16_t num_entries) { cb_wait_front(logical_dfb_id_, num_entries); }
  void pop_front(uint16_t num_entries) { cb_pop_front(logical_dfb_id_, num_entries); }

#ifndef COMPILE_FOR_TRISC
  bool pages_reservable_at_back(int32_t num_pages) const {
    return cb_pages_reservable_at_back(logical_dfb_id_, num_pages);
  }
  bool pages_available_at_front(int32_t num_pages) const {
    return cb_pages_available_at_front(logical_dfb_id_, num_pages);
  }
  // The writes that left this buffer have landed.
  void write_barrier(const Noc& noc) const { noc.async_write_barrier(); }
#endif

  uint32_t get_tile_size() const { return uint32_t(::get_tile_size(logical_dfb_id_)); }
  uint32_t get_tile_hw() const { return ::get_tile_hw(logical_dfb_id_); }
  uint32_t get_tile_num_faces() const { return ::get_tile_num_faces(logical_dfb_id_); }
  DataFormat get_dataformat() const { return ::get_dataformat(logical_dfb_id_); }

  void finish() {}

  uint32_t get_write_ptr() const { return ::get_write_ptr(logical_dfb_id_); }
  uint32_t get_read_ptr() const { return ::get_read_ptr(logical_dfb_id_); }

  void evil_set_write_ptr(uint32_t) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "not modelled: DataflowBuffer::evil_set_write_ptr (the emulator "
                                               "owns the CB's pointers)");
  }
  void evil_set_read_ptr(uint32_t) {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "not modelled: DataflowBuffer::evil_set_read_ptr (the emulator "
                                               "owns the CB's pointers)");
  }

 private:
  LocalCBInterface interface() const { return get_local_cb_interface(logical_dfb_id_); }

  uint16_t logical_dfb_id_;
};

#ifndef COMPILE_FOR_TRISC
namespace ditmk::detail {
inline uint32_t dfb_read_ptr(const DataflowBuffer& dfb) { return dfb.get_read_ptr(); }
inline uint32_t dfb_write_ptr(const DataflowBuffer& dfb) { return dfb.get_write_ptr(); }
}  // namespace ditmk::detail

template <>
struct noc_traits_t<DataflowBuffer> : ditmk::detail::CbNocTraits<DataflowBuffer, DataflowBufferArgs,
                                                                 ditmk::detail::dfb_read_ptr,
                                                                 ditmk::detail::dfb_write_ptr> {};
#endif
