#pragma once
// tt-metal's remote CBs (global circular buffers): a sender core's CB whose pages land in CBs of other
// cores, with credits passed over the NoC. ttnn's matmul readers reach them only with
// ENABLE_GLOBAL_CB (a weights prefetcher); the emulator has no global CBs, so each call faults,
// naming itself.
#include <stdint.h>

#include "ditmk/attributes.h"
#include "ditmk/noc_index.h"
#include "ditmk/not_modelled.h"

namespace experimental {

FORCE_INLINE void remote_cb_wait_front(uint32_t cb_id, uint32_t num_pages) {
  (void)cb_id, (void)num_pages;
  ditmk::detail::not_modelled("experimental::remote_cb_wait_front (global circular buffers)");
}

FORCE_INLINE void remote_cb_pop_front(uint32_t cb_id, uint32_t num_pages, uint8_t noc = noc_index) {
  (void)cb_id, (void)num_pages, (void)noc;
  ditmk::detail::not_modelled("experimental::remote_cb_pop_front (global circular buffers)");
}

FORCE_INLINE void remote_cb_reserve_back(uint32_t cb_id, uint32_t num_pages) {
  (void)cb_id, (void)num_pages;
  ditmk::detail::not_modelled("experimental::remote_cb_reserve_back (global circular buffers)");
}

FORCE_INLINE void remote_cb_sender_barrier(uint32_t cb_id) {
  (void)cb_id;
  ditmk::detail::not_modelled("experimental::remote_cb_sender_barrier (global circular buffers)");
}

template <bool skip_ptr_update = true>
FORCE_INLINE void remote_cb_push_back_and_write_pages(uint32_t cb_id, uint32_t local_cb_addr, uint32_t num_pages,
                                                      uint32_t num_rows, uint32_t coalesced_num_pages_per_row,
                                                      uint32_t coalesced_page_size, uint8_t noc = noc_index) {
  (void)cb_id, (void)local_cb_addr, (void)num_pages, (void)num_rows, (void)coalesced_num_pages_per_row;
  (void)coalesced_page_size, (void)noc;
  ditmk::detail::not_modelled("experimental::remote_cb_push_back_and_write_pages (global circular buffers)");
}

template <uint32_t num_local_cbs>
FORCE_INLINE void align_local_cbs_to_remote_cb(uint32_t remote_cb_index, const uint32_t (&local_cb_indices)[num_local_cbs]) {
  (void)remote_cb_index, (void)local_cb_indices;
  ditmk::detail::not_modelled("experimental::align_local_cbs_to_remote_cb (global circular buffers)");
}

FORCE_INLINE void update_remote_cb_config_in_l1(uint32_t remote_cb_index) {
  (void)remote_cb_index;
  ditmk::detail::not_modelled("experimental::update_remote_cb_config_in_l1 (global circular buffers)");
}

}  // namespace experimental
