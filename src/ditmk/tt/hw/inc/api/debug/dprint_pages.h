#pragma once
// tt-metal's page printers for debugging data-movement kernels: a CB's interface, and, as tt-metal
// declares them only when DEBUG_PRINT_ENABLED (a kernel may define it), pages of L1 as bf16, f32,
// u8, u16 or u32 values, one DPRINT line per page ("<page>: v v v ..."). print_cb_details prints
// what the emulated CB interface holds (it has no tile write pointer).
#include <stdint.h>

#include "api/debug/dprint.h"

#if defined(COMPILE_FOR_NCRISC) || defined(COMPILE_FOR_BRISC)
inline void print_cb_details(uint32_t cb_id) {
  const LocalCBInterface& cb = get_local_cb_interface(cb_id);
  DPRINT("cb_id {}: {{ size: {}, limit: {}, page_size: {}, num_pages: {}, rd_ptr: {}, wr_ptr: {} }}\n", cb_id,
         cb.fifo_size, cb.fifo_limit, cb.fifo_page_size, cb.fifo_num_pages, cb.fifo_rd_ptr, cb.fifo_wr_ptr);
}
#endif

#if (defined(COMPILE_FOR_NCRISC) || defined(COMPILE_FOR_BRISC)) && defined(DEBUG_PRINT_ENABLED) && \
    !defined(FORCE_DPRINT_OFF)
namespace tt::data_movement::common {

namespace detail {
template <typename Word, typename Show>
inline void print_pages(uint32_t l1_addr, uint32_t per_page, uint32_t npages, uint32_t start, Show show) {
  volatile tt_l1_ptr Word* ptr = reinterpret_cast<volatile tt_l1_ptr Word*>(l1_addr) + start * per_page;
  for (uint32_t page = 0; page < npages; ++page) {
    DPRINT("{}: ", start + page);
    for (uint32_t j = 0; j < per_page; ++j, ++ptr) show(*ptr);
    DPRINT("\n");
  }
}
}  // namespace detail

inline void print_bf16_pages(uint32_t l1_addr, uint32_t elts_per_page, uint32_t npages, uint32_t start = 0) {
  detail::print_pages<uint16_t>(l1_addr, elts_per_page, npages, start, [](uint16_t v) { DPRINT("{} ", bf16_t(v)); });
}

inline void print_f32_pages(uint32_t l1_addr, uint32_t elts_per_page, uint32_t npages, uint32_t start = 0) {
  detail::print_pages<uint32_t>(l1_addr, elts_per_page, npages, start,
                                [](uint32_t v) { DPRINT("{} ", __builtin_bit_cast(float, v)); });
}

inline void print_u8_pages(uint32_t l1_addr, uint32_t bytes_per_page, uint32_t npages, uint32_t start = 0) {
  detail::print_pages<uint8_t>(l1_addr, bytes_per_page, npages, start, [](uint8_t v) { DPRINT("0x{:02X} ", v); });
}

inline void print_u16_pages(uint32_t l1_addr, uint32_t elts_per_page, uint32_t npages, uint32_t start = 0) {
  detail::print_pages<uint16_t>(l1_addr, elts_per_page, npages, start, [](uint16_t v) { DPRINT("{} ", v); });
}

inline void print_u32_pages(uint32_t l1_addr, uint32_t elts_per_page, uint32_t npages, uint32_t start = 0) {
  detail::print_pages<uint32_t>(l1_addr, elts_per_page, npages, start, [](uint32_t v) { DPRINT("{} ", v); });
}

}  // namespace tt::data_movement::common
#endif
