// matmul_mcast reader: moves the K blocks of A and B onto a 2-D grid of cores with NoC multicasts.
//
// Core (x, y) of the grid computes C's output block (y, x): per_core_M x per_core_N tiles. It needs
// A's block row y and B's block column x, one K block (block_w tiles deep) at a time. Instead of
// every core reading its operands from DRAM:
//   - the cores of the left column (x = 0) read A's blocks and multicast them to the rest of their
//     row ("in0 senders"); the others of the row receive them ("in0 receivers");
//   - the cores of the top row (y = 0) read B's blocks and multicast them down their column
//     ("in1 senders"); the others of the column receive them ("in1 receivers").
// The corner (0, 0) sends both. So DRAM is read once per row / column instead of once per core.
//
// One source, four roles: program.json compiles this file four times, once per core range, with
// the defines IN0_SENDER and IN1_SENDER set to 0 or 1 ("defines" in the descriptor become -D flags).
//
// Handshake per block, with two semaphores per operand (ids from the named compile-time args):
//   receiver: cb_reserve_back (its CB has room for the block at the same L1 address as the
//             sender's), set its receiver semaphore to INVALID, noc_semaphore_inc the sender's
//             "sender" semaphore by 1 ("I am ready"), then noc_semaphore_wait until its receiver
//             semaphore is VALID, and cb_push_back: the block is in its CB.
//   sender:   read the block from DRAM into its CB, noc_semaphore_wait until its sender semaphore
//             counts every receiver, reset it, multicast the block into the receivers' CBs, then
//             multicast its own receiver semaphore (holding VALID) onto theirs, and cb_push_back.
// Every core configures the same CBs in the same order, so a CB page has the same L1 address on
// every core and the sender can multicast to its own get_write_ptr address.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

constexpr uint32_t kBlockInvalid = 0;  // receiver semaphore: waiting for a block
constexpr uint32_t kBlockValid = 1;    // receiver semaphore: the block has landed

// A multicast destination: an inclusive rectangle of cores [x0..x1] x [y0..y1] (NoC coordinates;
// on ditmk's emulated chip these are the logical ones) and how many cores receive (the sender is
// not in it). This reader runs on NoC 0, where a rectangle is given from its low corner (start <=
// end); a kernel multicasting on NoC 1 passes the corners the other way round, as the two NoCs run
// in opposite directions.
struct McastDest {
    uint32_t x0, y0, x1, y1, num_dests;
};

FORCE_INLINE McastDest mcast_dest_arg(uint32_t first_arg) {
    return {get_arg_val<uint32_t>(first_arg), get_arg_val<uint32_t>(first_arg + 1),
            get_arg_val<uint32_t>(first_arg + 2), get_arg_val<uint32_t>(first_arg + 3),
            get_arg_val<uint32_t>(first_arg + 4)};
}

FORCE_INLINE volatile tt_l1_ptr uint32_t* semaphore_ptr(uint32_t sem_addr) {
    return reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem_addr);
}

// Sender: reads `rows` x `cols` tiles (tile `first` at the top left, `stride` tiles per row of the
// tensor) into the CB, then multicasts them to `dest`.
template <typename Accessor>
FORCE_INLINE void send_block(uint32_t cb, const Accessor& tensor, uint32_t first, uint32_t rows, uint32_t cols,
                             uint32_t stride, const McastDest& dest, uint32_t sender_sem_addr,
                             uint32_t receiver_sem_addr) {
    const uint32_t num_tiles = rows * cols;
    const uint32_t tile_bytes = get_tile_size(cb);

    cb_reserve_back(cb, num_tiles);
    const uint32_t block_addr = get_write_ptr(cb);
    uint32_t l1_addr = block_addr;
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
            noc_async_read_tile(first + r * stride + c, tensor, l1_addr);
            l1_addr += tile_bytes;
        }
    }
    noc_async_read_barrier();

    // Wait until every receiver has reserved room for this block, then re-arm for the next one.
    volatile tt_l1_ptr uint32_t* sender_sem = semaphore_ptr(sender_sem_addr);
    noc_semaphore_wait(sender_sem, dest.num_dests);
    noc_semaphore_set(sender_sem, 0);

    // One NoC write lands the block in the same L1 address of every core of the rectangle.
    const uint64_t block_mcast_addr = get_noc_multicast_addr(dest.x0, dest.y0, dest.x1, dest.y1, block_addr);
    noc_async_write_multicast(block_addr, block_mcast_addr, num_tiles * tile_bytes, dest.num_dests);
    // Make sure the data has landed before the flag that announces it. (tt-metal's own kernel relies
    // on the NoC keeping the two writes in order instead; the barrier is the portable form.)
    noc_async_write_barrier();

    // Copy the local receiver semaphore, which holds VALID, onto every receiver's.
    const uint64_t flag_mcast_addr =
        get_noc_multicast_addr(dest.x0, dest.y0, dest.x1, dest.y1, receiver_sem_addr);
    noc_semaphore_set_multicast(receiver_sem_addr, flag_mcast_addr, dest.num_dests);

    cb_push_back(cb, num_tiles);  // the compute kernel of this core may use the block too
}

// Receiver: gets a block of `num_tiles` tiles from the sender at NoC coordinates (sender_x, sender_y).
FORCE_INLINE void receive_block(uint32_t cb, uint32_t num_tiles, uint32_t sender_x, uint32_t sender_y,
                                uint32_t sender_sem_addr, uint32_t receiver_sem_addr) {
    cb_reserve_back(cb, num_tiles);

    volatile tt_l1_ptr uint32_t* receiver_sem = semaphore_ptr(receiver_sem_addr);
    noc_semaphore_set(receiver_sem, kBlockInvalid);

    // Semaphores have the same L1 address on every core, so the sender's is our address on its core.
    const uint64_t sender_sem_noc_addr = get_noc_addr(sender_x, sender_y, sender_sem_addr);
    noc_semaphore_inc(sender_sem_noc_addr, 1);

    noc_semaphore_wait(receiver_sem, kBlockValid);  // set by the sender after the block landed
    cb_push_back(cb, num_tiles);
}

void kernel_main() {
    constexpr bool in0_sender = IN0_SENDER == 1;
    constexpr bool in1_sender = IN1_SENDER == 1;

    constexpr uint32_t Kt = get_named_compile_time_arg_val("Kt");  // tiles of K
    constexpr uint32_t Nt = get_named_compile_time_arg_val("Nt");  // tiles of N (B's row stride)
    constexpr uint32_t block_w = get_named_compile_time_arg_val("block_w");  // K tiles per block
    constexpr uint32_t per_core_M = get_named_compile_time_arg_val("per_core_M");
    constexpr uint32_t per_core_N = get_named_compile_time_arg_val("per_core_N");
    constexpr uint32_t num_blocks = Kt / block_w;

    // get_semaphore(id) is the L1 address of the semaphore with that id on this core.
    const uint32_t in0_sender_sem = get_semaphore(get_named_compile_time_arg_val("in0_sender_sem"));
    const uint32_t in0_receiver_sem = get_semaphore(get_named_compile_time_arg_val("in0_receiver_sem"));
    const uint32_t in1_sender_sem = get_semaphore(get_named_compile_time_arg_val("in1_sender_sem"));
    const uint32_t in1_receiver_sem = get_semaphore(get_named_compile_time_arg_val("in1_receiver_sem"));

    // Runtime args (the same layout on every core; a role ignores what it does not use).
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t a_start_tile = get_arg_val<uint32_t>(2);  // A(y * per_core_M, 0)
    const uint32_t b_start_tile = get_arg_val<uint32_t>(3);  // B(0, x * per_core_N)
    const McastDest in0_dest = mcast_dest_arg(4);            // args 4..8: the rest of this row
    const uint32_t in0_sender_x = get_arg_val<uint32_t>(9);  // the row's A sender
    const uint32_t in0_sender_y = get_arg_val<uint32_t>(10);
    const McastDest in1_dest = mcast_dest_arg(11);            // args 11..15: the rest of this column
    const uint32_t in1_sender_x = get_arg_val<uint32_t>(16);  // the column's B sender
    const uint32_t in1_sender_y = get_arg_val<uint32_t>(17);

    constexpr uint32_t cb_a = 0;
    constexpr uint32_t cb_b = 1;

    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(cb_a));
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(cb_b));

    // A sender's receiver semaphore is only ever a source: it holds VALID for the whole run.
    if constexpr (in0_sender) {
        noc_semaphore_set(semaphore_ptr(in0_receiver_sem), kBlockValid);
    }
    if constexpr (in1_sender) {
        noc_semaphore_set(semaphore_ptr(in1_receiver_sem), kBlockValid);
    }

    for (uint32_t block = 0; block < num_blocks; ++block) {
        // A block: per_core_M x block_w tiles, A(y * per_core_M + m, block * block_w + k).
        if constexpr (in0_sender) {
            send_block(cb_a, a, a_start_tile + block * block_w, per_core_M, block_w, Kt, in0_dest,
                       in0_sender_sem, in0_receiver_sem);
        } else {
            receive_block(cb_a, per_core_M * block_w, in0_sender_x, in0_sender_y, in0_sender_sem,
                          in0_receiver_sem);
        }
        // B block: block_w x per_core_N tiles, B(block * block_w + k, x * per_core_N + n).
        if constexpr (in1_sender) {
            send_block(cb_b, b, b_start_tile + block * block_w * Nt, block_w, per_core_N, Nt, in1_dest,
                       in1_sender_sem, in1_receiver_sem);
        } else {
            receive_block(cb_b, block_w * per_core_N, in1_sender_x, in1_sender_y, in1_sender_sem,
                          in1_receiver_sem);
        }
    }

    // Semaphore increments are NoC atomics: wait for ours to complete before the kernel ends.
    noc_async_atomic_barrier();
}
