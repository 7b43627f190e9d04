/* The C ABI between a compiled dialect kernel and the emulator: one table of function pointers the
 * emulator hands to ditmk_kernel_entry (ditmk_kernel_entry.h). The device headers turn every
 * tt-metal call into a call through this table; the emulator's side is
 * src/ditmk/tt/device_abi/device_abi.cpp.
 *
 * L1 addresses crossing the table are the kernel's: window addresses (l1_window.hpp) or plain L1
 * offsets, both accepted; L1 addresses coming back are window addresses a kernel may dereference.
 * NoC addresses are the emulator's 64-bit encoding. Every entry may raise a fault, which unwinds the
 * kernel's frames: nothing here is noexcept.
 *
 * Bump DITMK_DEVICE_ABI_VERSION whenever the table or an enum below changes: the emulator refuses a
 * compiled kernel (a cached one included) that reports another version. */
#ifndef DITMK_DEVICE_ABI_H
#define DITMK_DEVICE_ABI_H

#include <stdint.h>

#define DITMK_DEVICE_ABI_VERSION 7

/* Faults a device header raises itself (a call the emulator cannot model, a bad argument). */
enum ditmk_fault_kind { DITMK_FAULT_BAD_CALL = 0, DITMK_FAULT_MISSING_ARG = 1, DITMK_FAULT_OUT_OF_BOUNDS = 2 };

/* Items of the stream-style DPRINT, and the kinds of DEVICE_PRINT's arguments. Integers and floats
 * travel as their bits: sign-extended for the signed kinds, the float's own bits for F32. */
enum ditmk_dprint_item {
  DITMK_DPRINT_I32 = 0,
  DITMK_DPRINT_U32 = 1,
  DITMK_DPRINT_I64 = 2,
  DITMK_DPRINT_U64 = 3,
  DITMK_DPRINT_F32 = 4,
  DITMK_DPRINT_F64 = 5,
  DITMK_DPRINT_CHAR = 6,
  DITMK_DPRINT_BOOL = 7,
  DITMK_DPRINT_BF16 = 8, /* the 16 bits of a bfloat16 */
  DITMK_DPRINT_POINTER = 9,
  DITMK_DPRINT_TEXT = 10, /* DEVICE_PRINT arguments only: ditmk_dprint_arg::text */
  /* stream manipulators: sticky like iostream's, except SETW, which applies to the next item */
  DITMK_DPRINT_ENDL = 16,
  DITMK_DPRINT_HEX = 17,
  DITMK_DPRINT_DEC = 18,
  DITMK_DPRINT_OCT = 19,
  DITMK_DPRINT_SETW = 20,         /* bits: the width */
  DITMK_DPRINT_SETPRECISION = 21, /* bits: the precision */
  DITMK_DPRINT_FIXED = 22,
  DITMK_DPRINT_DEFAULTFLOAT = 23,
  DITMK_DPRINT_FLUSH = 24 /* the kernel returned: print an unfinished line */
};

typedef struct ditmk_dprint_arg {
  uint32_t kind; /* ditmk_dprint_item, a value kind */
  uint64_t bits;
  const char* text;
} ditmk_dprint_arg;

/* Bytes a profiler zone object keeps inside the kernel's frame for the emulator's zone. */
#define DITMK_ZONE_STORAGE_BYTES 16

/* Which wait of the issuing processor's NoC transfers. */
enum ditmk_noc_barrier {
  DITMK_NOC_READ_BARRIER = 0,
  DITMK_NOC_WRITE_BARRIER = 1,
  DITMK_NOC_WRITES_FLUSHED = 2,
  DITMK_NOC_ATOMIC_BARRIER = 3,
  DITMK_NOC_FULL_BARRIER = 4
};

/* Compute: the op an init configures the unpacker and math engine for. */
enum ditmk_compute_init {
  DITMK_INIT_HW = 0,            /* a full init: unpacker, math and packer configured for the kernel */
  DITMK_INIT_BINARY = 1,        /* param0: ditmk_binary_op, param1: ditmk_broadcast */
  DITMK_INIT_MATMUL = 2,        /* param0: transpose B */
  DITMK_INIT_REDUCE = 3,        /* param0: ditmk_pool, param1: ditmk_reduce_dim */
  DITMK_INIT_REDUCE_UNINIT = 4, /* the packer's reduce edge mask cleared */
  DITMK_INIT_COPY = 5,          /* param0: transpose while copying */
  DITMK_INIT_TRANSPOSE = 6,     /* transpose_wh */
  DITMK_INIT_SFPU = 7,          /* param0: ditmk_sfpu_op */
  /* version 6 */
  DITMK_INIT_TILIZE = 8,        /* the unpacker tilizes row-major data; param0: the rows' width in tiles,
                                   param1: 1 for the fast tilize (fp32 read as tf32) */
  DITMK_INIT_PACK_UNTILIZE = 9, /* the packer's mode: param0 1 writes row-major rows, 0 whole tiles again */
  DITMK_INIT_UNARY_BCAST = 10,  /* param0: ditmk_broadcast (version 6) */
  DITMK_INIT_BINARY_REUSE_DEST = 11, /* param0: ditmk_binary_op, param1: ditmk_reuse_dest (version 6) */
  DITMK_INIT_SFPU_BINARY = 12        /* param0: ditmk_sfpu_binary_op (version 7) */
};

enum ditmk_binary_op { DITMK_BINARY_ADD = 0, DITMK_BINARY_SUB = 1, DITMK_BINARY_MUL = 2 };
/* tt-metal's EltwiseBinaryReuseDestType values: which source register a dest-reuse binary loads
 * DST's tile into (the CB's tile goes into the other) */
enum ditmk_reuse_dest { DITMK_REUSE_DEST_TO_SRCA = 1, DITMK_REUSE_DEST_TO_SRCB = 2 };
/* tt-metal's BroadcastType values */
enum ditmk_broadcast { DITMK_BCAST_NONE = 0, DITMK_BCAST_COL = 1, DITMK_BCAST_ROW = 2, DITMK_BCAST_SCALAR = 3 };
/* tt-metal's PoolType and ReduceDim values */
enum ditmk_pool { DITMK_POOL_SUM = 0, DITMK_POOL_AVG = 1, DITMK_POOL_MAX = 2 };
enum ditmk_reduce_dim { DITMK_REDUCE_ROW = 0, DITMK_REDUCE_COL = 1, DITMK_REDUCE_SCALAR = 2 };
enum ditmk_sfpu_op {
  DITMK_SFPU_EXP = 0,
  DITMK_SFPU_RECIP = 1,
  DITMK_SFPU_SQRT = 2,
  DITMK_SFPU_RSQRT = 3,
  DITMK_SFPU_GELU = 4,
  DITMK_SFPU_SILU = 5,
  /* version 6: the element-wise family */
  DITMK_SFPU_SIGMOID = 6,
  DITMK_SFPU_TANH = 7,
  DITMK_SFPU_LOG = 8,
  DITMK_SFPU_ABS = 9,
  DITMK_SFPU_NEGATIVE = 10,
  DITMK_SFPU_SQUARE = 11,
  DITMK_SFPU_RELU = 12,
  DITMK_SFPU_SIN = 13,
  DITMK_SFPU_COS = 14,
  DITMK_SFPU_TAN = 15,
  DITMK_SFPU_GELU_ERF = 16, /* gelu_tile<false>: the erf form */
  /* the ops below take sfpu_tile_param's argument */
  DITMK_SFPU_FILL = 17,       /* param: the value's fp32 bits */
  DITMK_SFPU_RPOW = 18,       /* param: the base's fp32 bits; base ** x */
  DITMK_SFPU_RDIV = 19,       /* param: the dividend's fp32 bits; value / x */
  DITMK_SFPU_LEAKY_RELU = 20, /* param: the slope's fp32 bits */
  DITMK_SFPU_POWER = 21,      /* param: the exponent's fp32 bits; x ** exponent */
  DITMK_SFPU_TYPECAST = 22,   /* param: (input DataFormat << 8) | output DataFormat */
  /* version 7: no argument */
  DITMK_SFPU_IDENTITY = 23, /* x */
  DITMK_SFPU_CBRT = 24,
  DITMK_SFPU_LOG1P = 25,     /* log(1 + x) */
  DITMK_SFPU_GTZ = 26,       /* the comparisons with zero: 1.0 where x > 0 holds, else 0.0 */
  DITMK_SFPU_NEZ = 27,
  DITMK_SFPU_GEZ = 28,
  DITMK_SFPU_LTZ = 29,
  DITMK_SFPU_EQZ = 30,
  DITMK_SFPU_LEZ = 31,
  /* version 7, with sfpu_tile_param's argument (a float's bits) */
  DITMK_SFPU_ADD_SCALAR = 32, /* x + s */
  DITMK_SFPU_SUB_SCALAR = 33, /* x - s */
  DITMK_SFPU_MUL_SCALAR = 34, /* x * s */
  DITMK_SFPU_DIV_SCALAR = 35, /* x / s */
  DITMK_SFPU_RSUB_SCALAR = 36, /* s - x */
  DITMK_SFPU_UNARY_NE = 37,   /* the comparisons with s: 1.0 where x != s holds, else 0.0 */
  DITMK_SFPU_UNARY_EQ = 38,
  DITMK_SFPU_UNARY_GT = 39,
  DITMK_SFPU_UNARY_GE = 40,
  DITMK_SFPU_UNARY_LT = 41,
  DITMK_SFPU_UNARY_LE = 42,
  DITMK_SFPU_SIGN = 43,            /* -1.0, 0.0 or 1.0; no argument */
  DITMK_SFPU_POWER_ITERATIVE = 44  /* x ** n; argument: the integer n itself */
};
/* SFPU ops of two DST tiles into a third (version 7): out = in0 op in1, element-wise; the comparisons
 * give 1.0 where they hold and 0.0 elsewhere */
enum ditmk_sfpu_binary_op {
  DITMK_SFPU_BINARY_ADD = 0,
  DITMK_SFPU_BINARY_SUB = 1,
  DITMK_SFPU_BINARY_MUL = 2,
  DITMK_SFPU_BINARY_DIV = 3,
  DITMK_SFPU_BINARY_RSUB = 4,  /* in1 - in0 */
  DITMK_SFPU_BINARY_POWER = 5, /* in0 ** in1 */
  DITMK_SFPU_BINARY_EQ = 6,
  DITMK_SFPU_BINARY_NE = 7,
  DITMK_SFPU_BINARY_LT = 8,
  DITMK_SFPU_BINARY_GT = 9,
  DITMK_SFPU_BINARY_LE = 10,
  DITMK_SFPU_BINARY_GE = 11,
  DITMK_SFPU_BINARY_MAX = 12,
  DITMK_SFPU_BINARY_MIN = 13,
  DITMK_SFPU_BINARY_COPY = 14,        /* in0 (copy_dest_values; in1 unused) */
  DITMK_SFPU_BINARY_MASK = 15,        /* in0, or 0.0 where in1 is 0 (mask_tile) */
  DITMK_SFPU_BINARY_MASK_POSINF = 16  /* in0, or +inf where in1 is 0 (mask_posinf_tile) */
};

/* A CB's interface as tt-metal's LocalCBInterface holds it (version 6): sizes in bytes and pages, and
 * the window addresses of the ring's end and of the pages the consumer reads and the producer fills
 * next. */
typedef struct ditmk_cb_interface {
  uint32_t fifo_size;
  uint32_t fifo_limit;
  uint32_t fifo_page_size;
  uint32_t fifo_num_pages;
  uint32_t fifo_rd_ptr;
  uint32_t fifo_wr_ptr;
} ditmk_cb_interface;

/* DST register steps: tile_regs_* and the older acquire_dst/release_dst pair. */
enum ditmk_dst_step {
  DITMK_DST_ACQUIRE = 0,
  DITMK_DST_COMMIT = 1,
  DITMK_DST_WAIT = 2,
  DITMK_DST_RELEASE = 3,
  DITMK_DST_ACQUIRE_LEGACY = 4,
  DITMK_DST_RELEASE_LEGACY = 5
};

/* matmul_tiles' transpose argument when the call has none: the init's transpose applies. */
#define DITMK_MATMUL_TRANSPOSE_FROM_INIT 0xFFFFFFFFu

typedef struct ditmk_device_abi {
  /* faults, printing, profiling */
  void (*fault)(uint32_t kind, const char* message);
  void (*dprint)(uint32_t item, uint64_t bits);
  void (*dprint_text)(const char* text, uint32_t size);
  void (*dprint_format)(const char* format, const ditmk_dprint_arg* args, uint32_t count);
  void (*zone_begin)(void* storage, const char* name);
  void (*zone_end)(void* storage);
  void (*zone_data)(const char* name, uint64_t data); /* DeviceTimestampedData: the record's name */
  /* timing: bytes of L1 a data mover loaded or stored through pointers (ditmk/risc_l1.h) */
  void (*risc_l1_bytes)(uint32_t bytes);

  /* where the kernel runs: logical coordinates, which the emulator also uses as NoC coordinates */
  uint32_t (*my_x)(void);
  uint32_t (*my_y)(void);

  /* runtime args: values, and the address of a copy the kernel may read through a pointer */
  uint32_t (*arg)(uint32_t index);
  uint32_t (*common_arg)(uint32_t index);
  uint32_t* (*arg_address)(uint32_t index);
  uint32_t* (*common_arg_address)(uint32_t index);

  /* circular buffers of the running core */
  void (*cb_reserve_back)(uint32_t cb, uint32_t pages);
  void (*cb_push_back)(uint32_t cb, uint32_t pages);
  void (*cb_wait_front)(uint32_t cb, uint32_t pages);
  void (*cb_pop_front)(uint32_t cb, uint32_t pages);
  uint32_t (*cb_pages_ready)(uint32_t cb, uint32_t pages, uint32_t at_front); /* non-blocking poll */
  uint32_t (*get_write_ptr)(uint32_t cb);
  uint32_t (*get_read_ptr)(uint32_t cb);
  uint32_t (*get_tile_size)(uint32_t cb);
  uint32_t (*get_dataformat)(uint32_t cb); /* tt-metal's DataFormat value */

  /* NoC addresses and transfers */
  uint64_t (*noc_addr)(uint32_t x, uint32_t y, uint32_t l1_address);
  uint64_t (*noc_multicast_addr)(uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end,
                                 uint32_t l1_address, uint32_t noc);
  uint64_t (*dram_noc_addr)(uint32_t bank, uint32_t bank_address);
  void (*noc_async_read)(uint64_t src_noc_addr, uint32_t dst_l1, uint32_t size);
  void (*noc_async_write)(uint32_t src_l1, uint64_t dst_noc_addr, uint32_t size);
  void (*noc_async_write_multicast)(uint32_t src_l1, uint64_t dst_mcast_addr, uint32_t size, uint32_t num_dests,
                                    uint32_t loopback);
  void (*noc_barrier)(uint32_t which); /* ditmk_noc_barrier */

  /* semaphores */
  uint32_t (*get_semaphore)(uint32_t id);
  void (*noc_semaphore_wait)(uint32_t sem_l1, uint32_t value, uint32_t at_least);
  void (*noc_semaphore_set)(uint32_t sem_l1, uint32_t value);
  void (*noc_semaphore_inc)(uint64_t sem_noc_addr, uint32_t increment);
  void (*noc_semaphore_set_multicast)(uint32_t src_sem_l1, uint64_t dst_mcast_addr, uint32_t num_dests,
                                      uint32_t loopback);

  /* compute (TRISC) */
  void (*compute_init)(uint32_t init, uint32_t param0, uint32_t param1); /* ditmk_compute_init */
  void (*dst)(uint32_t step);                                            /* ditmk_dst_step */
  void (*copy_tile)(uint32_t cb, uint32_t tile, uint32_t dst);
  void (*transpose_wh_tile)(uint32_t cb, uint32_t tile, uint32_t dst);
  void (*binary_tiles)(uint32_t op, uint32_t broadcast, uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b,
                       uint32_t dst);
  void (*matmul_tiles)(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst,
                       uint32_t transpose);
  void (*reduce_tile)(uint32_t pool, uint32_t dim, uint32_t cb, uint32_t cb_scaler, uint32_t tile, uint32_t tile_scaler,
                      uint32_t dst);
  void (*sfpu_tile)(uint32_t op, uint32_t dst); /* ditmk_sfpu_op */
  void (*pack_tile)(uint32_t dst, uint32_t cb, uint32_t out_tile, uint32_t out_of_order);

  /* L1 banks (version 5): the NoC address of `bank_address` in L1 bank `bank` (one bank per worker
   * core, numbered as tt-metal's allocator numbers them) */
  uint64_t (*l1_bank_noc_addr)(uint32_t bank, uint32_t bank_address);

  /* CB interfaces (version 6): what get_local_cb_interface(cb) reads */
  void (*get_cb_interface)(uint32_t cb, ditmk_cb_interface* out);

  /* the stateful NoC calls (version 6), per processor and direction (write: 0 reads, 1 writes), as a
   * command buffer holds them: set_state keeps a NoC address's endpoint (its high word) and a size
   * (0: each call gives one); with_state moves `size` bytes (0: the state's) between local L1 and
   * `address` at that endpoint */
  void (*noc_set_state)(uint32_t write, uint64_t noc_addr, uint32_t size);
  void (*noc_with_state)(uint32_t write, uint32_t address, uint32_t l1, uint32_t size);
  /* tilize and untilize (version 6). unpack_tilize: DST[dst] = tile `tile` (row-major order of the
   * block's tiles) of the row-major block at cb's front, rows as wide as the tilize init said.
   * pack_untilize: `tile_rows` x `block_tiles` DST tiles from DST[0] (row by row) written as
   * row-major rows into cb's reservation, whose rows are `full_tiles` tiles wide, starting at column
   * tile block_index * block_tiles. */
  void (*unpack_tilize)(uint32_t cb, uint32_t tile, uint32_t dst);
  void (*pack_untilize)(uint32_t block_tiles, uint32_t full_tiles, uint32_t cb, uint32_t block_index,
                        uint32_t tile_rows);
  /* SFPU ops with one 32-bit argument (version 6): ditmk_sfpu_op, from DITMK_SFPU_FILL on */
  void (*sfpu_tile_param)(uint32_t op, uint32_t dst, uint32_t param);
  /* DST[dst] = tile `tile` of cb broadcast (version 6): ditmk_broadcast */
  void (*unary_bcast_tile)(uint32_t broadcast, uint32_t cb, uint32_t tile, uint32_t dst);
  /* compute (version 6): DST[dst] = DST[dst] op tile (DEST_TO_SRCA) or tile op DST[dst]
   * (DEST_TO_SRCB), the tile counted from cb's front */
  void (*binary_reuse_dest_tile)(uint32_t op, uint32_t reuse, uint32_t cb, uint32_t tile, uint32_t dst);
  /* compute (version 7): DST[odst] = DST[dst0] op DST[dst1], ditmk_sfpu_binary_op */
  void (*sfpu_binary_tile)(uint32_t op, uint32_t dst0, uint32_t dst1, uint32_t odst);
} ditmk_device_abi;

#endif /* DITMK_DEVICE_ABI_H */
