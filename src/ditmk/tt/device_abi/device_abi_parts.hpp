#pragma once
// The functions of the device ABI table (include/ditmk_device_abi.h), by concern; device_abi.cpp
// puts them into the table. Each one checks its call as the emulator's device API does and raises a
// fault for what tt-metal leaves unchecked.
#include <cstdint>

#include "ditmk/tt/hw/inc/ditmk_device_abi.h"

namespace ditmk::tt::dialect::abi {

// Faults, printing, profiler zones (device_abi_debug.cpp).
void fault(uint32_t kind, const char* message);
void dprint(uint32_t item, uint64_t bits);
void dprint_text(const char* text, uint32_t size);
void dprint_format(const char* format, const ditmk_dprint_arg* args, uint32_t count);
void zone_begin(void* storage, const char* name);
void zone_end(void* storage);
void zone_data(const char* name, uint64_t data);
void risc_l1_bytes(uint32_t bytes);

// Args, CBs, NoC, semaphores (device_abi_dataflow.cpp).
uint32_t my_x();
uint32_t my_y();
uint32_t arg(uint32_t index);
uint32_t common_arg(uint32_t index);
uint32_t* arg_address(uint32_t index);
uint32_t* common_arg_address(uint32_t index);
void cb_reserve_back(uint32_t cb, uint32_t pages);
void cb_push_back(uint32_t cb, uint32_t pages);
void cb_wait_front(uint32_t cb, uint32_t pages);
void cb_pop_front(uint32_t cb, uint32_t pages);
uint32_t cb_pages_ready(uint32_t cb, uint32_t pages, uint32_t at_front);
uint32_t get_write_ptr(uint32_t cb);
uint32_t get_read_ptr(uint32_t cb);
uint32_t get_tile_size(uint32_t cb);
uint32_t get_dataformat(uint32_t cb);
uint64_t noc_addr(uint32_t x, uint32_t y, uint32_t l1_address);
uint64_t noc_multicast_addr(uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end, uint32_t l1_address,
                            uint32_t noc);
uint64_t dram_noc_addr(uint32_t bank, uint32_t bank_address);
uint64_t l1_bank_noc_addr(uint32_t bank, uint32_t bank_address);
void get_cb_interface(uint32_t cb, ditmk_cb_interface* out);
void noc_set_state(uint32_t write, uint64_t noc_addr, uint32_t size);
void noc_with_state(uint32_t write, uint32_t address, uint32_t l1, uint32_t size);
void noc_async_read(uint64_t src_noc_addr, uint32_t dst_l1, uint32_t size);
void noc_async_write(uint32_t src_l1, uint64_t dst_noc_addr, uint32_t size);
void noc_async_write_multicast(uint32_t src_l1, uint64_t dst_mcast_addr, uint32_t size, uint32_t num_dests,
                               uint32_t loopback);
void noc_barrier(uint32_t which);
uint32_t get_semaphore(uint32_t id);
void noc_semaphore_wait(uint32_t sem_l1, uint32_t value, uint32_t at_least);
void noc_semaphore_set(uint32_t sem_l1, uint32_t value);
void noc_semaphore_inc(uint64_t sem_noc_addr, uint32_t increment);
void noc_semaphore_set_multicast(uint32_t src_sem_l1, uint64_t dst_mcast_addr, uint32_t num_dests, uint32_t loopback);

// Compute (device_abi_compute.cpp).
void compute_init(uint32_t init, uint32_t param0, uint32_t param1);
void dst(uint32_t step);
void copy_tile(uint32_t cb, uint32_t tile, uint32_t dst);
void transpose_wh_tile(uint32_t cb, uint32_t tile, uint32_t dst);
void binary_tiles(uint32_t op, uint32_t broadcast, uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b,
                  uint32_t dst);
void matmul_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst, uint32_t transpose);
void reduce_tile(uint32_t pool, uint32_t dim, uint32_t cb, uint32_t cb_scaler, uint32_t tile, uint32_t tile_scaler,
                 uint32_t dst);
void sfpu_tile(uint32_t op, uint32_t dst);
void sfpu_tile_param(uint32_t op, uint32_t dst, uint32_t param);
void unary_bcast_tile(uint32_t broadcast, uint32_t cb, uint32_t tile, uint32_t dst);
void pack_tile(uint32_t dst, uint32_t cb, uint32_t out_tile, uint32_t out_of_order);
void unpack_tilize(uint32_t cb, uint32_t tile, uint32_t dst);
void pack_untilize(uint32_t block_tiles, uint32_t full_tiles, uint32_t cb, uint32_t block_index, uint32_t tile_rows);
void binary_reuse_dest_tile(uint32_t op, uint32_t reuse, uint32_t cb, uint32_t tile, uint32_t dst);
void sfpu_binary_tile(uint32_t op, uint32_t dst0, uint32_t dst1, uint32_t odst);

}  // namespace ditmk::tt::dialect::abi
