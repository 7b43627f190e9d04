#pragma once
// CircularBuffer: tt-metal's object over one CB of the running core, with the flow calls of
// ditmk/circular_buffer.h. In a data-movement kernel it is a NoC endpoint like DataflowBuffer (its
// read pointer as a source, its write pointer as a destination, {.offset_bytes = n} further on), and
// use<CircularBuffer::AddrSelector::READ_PTR>(cb) / use<...WRITE_PTR>(cb) pick either pointer for
// both directions.
#include <stdint.h>

#include "ditmk/cb_format.h"
#include "ditmk/circular_buffer.h"
#include "hostdevcommon/kernel_structs.h"
#ifndef COMPILE_FOR_TRISC
#include "api/dataflow/noc.h"
#include "ditmk/cb_endpoint.h"
// 0.81.1 brings the TensorAccessor endpoint in with the buffer types (its DRAM zeroing uses it).
#include "api/tensor/noc_traits.h"
#endif

class CircularBuffer {
 public:
  enum class AddrSelector { WRITE_PTR, READ_PTR };

  explicit CircularBuffer(uint32_t cb_id) : cb_id_(cb_id) {}

  uint32_t get_cb_id() const { return cb_id_; }

  void reserve_back(int32_t num_pages) { cb_reserve_back(cb_id_, num_pages); }
  void push_back(int32_t num_pages) { cb_push_back(cb_id_, num_pages); }
  void wait_front(int32_t num_pages) { cb_wait_front(cb_id_, num_pages); }
  void pop_front(int32_t num_pages) { cb_pop_front(cb_id_, num_pages); }

#ifndef COMPILE_FOR_TRISC
  uint32_t get_tile_size() const { return uint32_t(::get_tile_size(cb_id_)); }
  uint32_t get_tile_hw() const { return ::get_tile_hw(cb_id_); }
  DataFormat get_dataformat() const { return ::get_dataformat(cb_id_); }
  bool pages_reservable_at_back(int32_t num_pages) const { return cb_pages_reservable_at_back(cb_id_, num_pages); }
  bool pages_available_at_front(int32_t num_pages) const { return cb_pages_available_at_front(cb_id_, num_pages); }
#endif

  uint32_t get_write_ptr() const { return ::get_write_ptr(cb_id_); }
  uint32_t get_read_ptr() const { return ::get_read_ptr(cb_id_); }

 private:
  uint32_t cb_id_;
};

#ifndef COMPILE_FOR_TRISC
template <CircularBuffer::AddrSelector AddrSel>
struct CircularBufferView {
  const CircularBuffer& cb;
  explicit constexpr CircularBufferView(const CircularBuffer& c) : cb(c) {}
};

template <CircularBuffer::AddrSelector AddrSel>
constexpr auto use(const CircularBuffer& cb) {
  return CircularBufferView<AddrSel>(cb);
}

namespace ditmk::detail {

inline uint32_t cb_read_ptr(const CircularBuffer& cb) { return cb.get_read_ptr(); }
inline uint32_t cb_write_ptr(const CircularBuffer& cb) { return cb.get_write_ptr(); }
template <CircularBuffer::AddrSelector AddrSel>
uint32_t view_ptr(const CircularBufferView<AddrSel>& view) {
  return AddrSel == CircularBuffer::AddrSelector::READ_PTR ? view.cb.get_read_ptr() : view.cb.get_write_ptr();
}

}  // namespace ditmk::detail

template <>
struct noc_traits_t<CircularBuffer>
    : ditmk::detail::CbNocTraits<CircularBuffer, ditmk::detail::CbOffsetArgs, ditmk::detail::cb_read_ptr,
                                 ditmk::detail::cb_write_ptr> {};

template <CircularBuffer::AddrSelector AddrSel>
struct noc_traits_t<CircularBufferView<AddrSel>>
    : ditmk::detail::CbNocTraits<CircularBufferView<AddrSel>, ditmk::detail::CbOffsetArgs, ditmk::detail::view_ptr<AddrSel>,
                                 ditmk::detail::view_ptr<AddrSel>> {};
#endif
