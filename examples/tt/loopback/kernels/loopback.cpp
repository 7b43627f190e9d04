// loopback: copies one DRAM tensor into another through a circular buffer (CB) in L1, on a single
// core and a single processor.
//
// A tt-metal data-movement kernel is a plain function `void kernel_main()` that runs on one of the
// two data-movement RISC-V processors of a Tensix core (RISCV_0 "BRISC" or RISCV_1 "NCRISC"; the
// descriptor's "config" picks which, and which NoC it issues on). It never touches DRAM directly:
// it asks its NoC to copy bytes between DRAM and the core's own L1 (noc_async_read /
// noc_async_write) and waits for the copies with barriers. L1 space comes from circular buffers the
// host configured (here CB 0, sized in program.json).
//
// Data movement kernels see "api/dataflow/dataflow_api.h" even without including it; including it
// explicitly, as here, is the usual style.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    // Runtime args: 32-bit words the host sets for each core before the launch (the descriptor's
    // "runtime_args" for core (0,0)). {"address_of": "src"} there becomes the tensor's base address,
    // the same in every DRAM bank.
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    // Named compile-time args: constants baked into this kernel's build ("named_compile_time_args").
    // They are constexpr, so they can size loops and arrays.
    constexpr uint32_t page_size = get_named_compile_time_arg_val("page_size");      // bytes of one page
    constexpr uint32_t block_pages = get_named_compile_time_arg_val("block_pages");  // pages per CB fill

    constexpr uint32_t cb = 0;  // the CB's id (0..63 on Blackhole); program.json gives it block_pages pages

    // An interleaved DRAM buffer spreads its pages round-robin over the 8 DRAM banks: page p lives
    // in bank p % 8. InterleavedAddrGen turns a page index into the 64-bit NoC address of that page
    // (bank, and offset inside the bank) given the buffer's base address and page size.
    const InterleavedAddrGen<true> src = {.bank_base_address = src_addr, .page_size = page_size};
    const InterleavedAddrGen<true> dst = {.bank_base_address = dst_addr, .page_size = page_size};

    // The host guarantees num_pages % block_pages == 0 (the CB read and write pointers wrap only at
    // the CB's end, so every fill must be the same size as the CB here).
    for (uint32_t first = 0; first < num_pages; first += block_pages) {
        // Producer side of the CB: reserve free pages at the back, fill them, push them.
        cb_reserve_back(cb, block_pages);           // blocks until block_pages pages are free
        uint32_t l1_addr = get_write_ptr(cb);       // L1 address of the reserved pages
        for (uint32_t i = 0; i < block_pages; ++i) {
            const uint64_t page_noc_addr = get_noc_addr(first + i, src);
            noc_async_read(page_noc_addr, l1_addr + i * page_size, page_size);  // DRAM -> L1, async
        }
        noc_async_read_barrier();                   // all reads issued by this processor have landed
        cb_push_back(cb, block_pages);              // the pages are now visible at the CB's front

        // Consumer side of the CB (here the same kernel): wait for pages at the front, use them, pop.
        cb_wait_front(cb, block_pages);
        l1_addr = get_read_ptr(cb);                 // L1 address of the oldest pushed pages
        for (uint32_t i = 0; i < block_pages; ++i) {
            noc_async_write(l1_addr + i * page_size, get_noc_addr(first + i, dst), page_size);  // L1 -> DRAM
        }
        noc_async_write_barrier();                  // the writes have completed: the L1 may be reused
        cb_pop_front(cb, block_pages);              // frees the pages for the next reservation
    }
}
