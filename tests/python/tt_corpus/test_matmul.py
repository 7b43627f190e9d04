"""Corpus: ttnn 0.81.1's matmul kernels, launched through generic_op as the matmul program factories
launch them (kernel paths, compile-time and runtime args, CBs, semaphores and core split are the
factories'), checked against torch.

Each launch names the factory source it follows (tt-metal, ttnn/cpp/ttnn/operations/matmul/device/
factory/). Where a 0.81.1 kernel takes an arg the factory text we follow predates, the kernel's own
declaration says what it is and the value given is the one that keeps the factory's behaviour
(written next to it)."""
import pytest
import torch

import ditmk.ttnn as ttnn
from ditmk.ttnn import experimental
from corpus import assert_close

pytestmark = pytest.mark.tt_corpus

KERNELS = "ttnn/cpp/ttnn/operations/matmul/device/kernels"
TILE = 32
TILE_BYTES_BF16 = 2048
# matmul_utilities.hpp: the mcast factories double-buffer their inputs when there is more than one block.
MCAST_INPUT_BUFFERING_DEPTH = 2
# common_values.hpp: a semaphore's "not yet valid" state, every mcast semaphore's initial value.
INVALID = 0


def cores(x0, y0, x1, y1):
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(x0, y0), ttnn.CoreCoord(x1, y1))])


def core_set(ranges):
    return ttnn.CoreRangeSet(
        [ttnn.CoreRange(ttnn.CoreCoord(x0, y0), ttnn.CoreCoord(x1, y1)) for (x0, y0, x1, y1) in ranges]
    )


def cb(index_formats, total_size, where):
    """One CB; several (buffer_index, page_size) pairs share its memory, as the factories' out/interm CB."""
    return ttnn.CBDescriptor(
        total_size=total_size,
        core_ranges=where,
        format_descriptors=[
            ttnn.CBFormatDescriptor(buffer_index=index, data_format=ttnn.bfloat16, page_size=page)
            for index, page in index_formats
        ],
    )


# A factory's TensorAccessorArgs() with no buffer (the sparsity operand's placeholder): an interleaved
# accessor's two words, the config word with no flag set and a page size of 0.
NO_TENSOR_ACCESSOR = [0, 0]


def accessor(tensor=None):
    if tensor is None:
        return list(NO_TENSOR_ACCESSOR)
    return list(ttnn.TensorAccessorArgs(tensor).get_compile_time_args())


def bf16_inputs(m, k, n, seed, batch=1):
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(batch, 1, m, k, generator=g).to(torch.bfloat16)
    b = torch.randn(1, 1, k, n, generator=g).to(torch.bfloat16)
    return a, b


def to_device(device, t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


def output_like(device, shape):
    return ttnn.allocate_tensor_on_device(
        ttnn.Shape(shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, ttnn.DRAM_MEMORY_CONFIG
    )


def golden(a, b):
    return (a.float() @ b.float()).float()


def check(out, a, b):
    assert_close(ttnn.to_torch(out).float(), golden(a, b), pcc=0.999, atol=0.1, rtol=0.02)


# ---------------------------------------------------------------------------------------------------
# MatmulMultiCoreReuseProgramFactory (matmul_multicore_reuse_program_factory.cpp): fixed blocking,
# per core a 16 x 16-tile output block, in0 blocks of 2 tiles along K, out subblocks of 4 x 2 tiles.
# ---------------------------------------------------------------------------------------------------
def matmul_reuse(device, a_t, b_t, out_t, batch, Mt, Kt, Nt, bcast_batch):
    in0_block_w, out_subblock_h, out_subblock_w, per_core_M, per_core_N = 2, 4, 2, 16, 16
    assert Mt % per_core_M == 0 and Nt % per_core_N == 0 and Kt % in0_block_w == 0
    tile = TILE_BYTES_BF16
    num_blocks = Kt // in0_block_w
    in0_num_subblocks = per_core_M // out_subblock_h
    in0_block_num_tiles = out_subblock_h * in0_block_w * in0_num_subblocks
    in1_num_subblocks = per_core_N // out_subblock_w
    in1_block_num_tiles = out_subblock_w * in0_block_w * in1_num_subblocks
    compute_args = [
        in0_block_w,
        in0_num_subblocks,
        in0_block_num_tiles,
        out_subblock_h * in0_block_w,
        in1_num_subblocks,
        in1_block_num_tiles,
        out_subblock_w * in1_num_subblocks,
        num_blocks,
        out_subblock_h,
        out_subblock_w,
        out_subblock_h * out_subblock_w,
        batch,
    ]
    num_blocks_y, num_blocks_x = Mt // per_core_M, Nt // per_core_N
    grid_x = device.compute_with_storage_grid_size().x
    n_cores = num_blocks_x * num_blocks_y
    # num_cores_to_corerangeset(n, grid, row_wise=true): full rows, then the partial one.
    ranges = []
    if n_cores >= grid_x:
        ranges.append((0, 0, grid_x - 1, n_cores // grid_x - 1))
    if n_cores % grid_x:
        ranges.append((0, n_cores // grid_x, n_cores % grid_x - 1, n_cores // grid_x))
    all_cores = core_set(ranges)

    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    block = 0
    for oy in range(num_blocks_y):
        for ox in range(num_blocks_x):
            x, y = block % grid_x, block // grid_x
            reader_rt[x][y] = [
                a_t.buffer_address(), Kt * per_core_M * oy, 1, Kt, in0_block_w,
                in0_block_w, per_core_M, in0_block_w * per_core_M,
                b_t.buffer_address(), per_core_N * ox, 1, Nt, in0_block_w * Nt,
                per_core_N, in0_block_w, per_core_N * in0_block_w,
                Kt // in0_block_w, Mt * Kt, Kt * Nt, batch, int(bcast_batch),
            ]  # fmt: skip
            writer_rt[x][y] = [
                out_t.buffer_address(), ox * per_core_N + oy * per_core_M * Nt, 1, Nt,
                out_subblock_w, out_subblock_h * Nt, out_subblock_w, out_subblock_h,
                out_subblock_w * out_subblock_h, per_core_N // out_subblock_w, per_core_M // out_subblock_h,
                Mt * Nt, batch,
            ]  # fmt: skip
            block += 1

    kernels = [
        ttnn.KernelDescriptor(
            kernel_source=f"{KERNELS}/dataflow/reader_bmm_tile_layout.cpp",
            core_ranges=all_cores,
            compile_time_args=accessor(a_t) + accessor(b_t),
            named_compile_time_args=[("cb_in0", 0), ("cb_in1", 1)],
            runtime_args=reader_rt,
            config=ttnn.ReaderConfigDescriptor(),
        ),
        ttnn.KernelDescriptor(
            kernel_source=f"{KERNELS}/dataflow/writer_bmm_tile_layout.cpp",
            core_ranges=all_cores,
            compile_time_args=accessor(out_t),
            named_compile_time_args=[("cb_out", 16)],
            runtime_args=writer_rt,
            config=ttnn.WriterConfigDescriptor(),
        ),
        ttnn.KernelDescriptor(
            kernel_source=f"{KERNELS}/compute/bmm_large_block_zm.cpp",
            core_ranges=all_cores,
            compile_time_args=compute_args,
            named_compile_time_args=[("cb_in0", 0), ("cb_in1", 1), ("cb_out", 16), ("cb_intermed0", 24)],
            config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4),
        ),
    ]
    cbs = [
        cb([(0, tile)], per_core_M * in0_block_w * 2 * tile, all_cores),
        cb([(1, tile)], per_core_N * in0_block_w * 2 * tile, all_cores),
        cb([(16, tile), (24, tile)], per_core_M * per_core_N * tile, all_cores),
    ]
    return ttnn.generic_op([a_t, b_t, out_t], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


def test_matmul_multi_core_reuse(device):
    Mt, Kt, Nt = 16, 4, 16
    a, b = bf16_inputs(Mt * TILE, Kt * TILE, Nt * TILE, seed=1)
    a_t, b_t = to_device(device, a), to_device(device, b)
    out_t = output_like(device, [1, 1, Mt * TILE, Nt * TILE])
    out = matmul_reuse(device, a_t, b_t, out_t, batch=1, Mt=Mt, Kt=Kt, Nt=Nt, bcast_batch=True)
    check(out, a, b)


# ---------------------------------------------------------------------------------------------------
# The multicast factories (reuse_mcast_2d_descriptor.cpp, reuse_mcast_1d_descriptor.cpp) share their
# kernels and most of their args: interleaved DRAM tensors, no bias, no fused activation, no
# transpose, no sparsity, fp32_dest_acc_en and packer L1 accumulation off.
# ---------------------------------------------------------------------------------------------------
class Blocking:
    """A factory's blocking of C[M, N] = A[M, K] x B[K, N] (all in tiles): each core computes
    per_core_M x per_core_N tiles in out blocks of the same size, K in blocks of in0_block_w."""

    def __init__(self, M, K, N, per_core_M, per_core_N, in0_block_w, out_subblock_h, out_subblock_w, batch=1):
        self.M, self.K, self.N, self.batch = M, K, N, batch
        self.per_core_M, self.per_core_N, self.in0_block_w = per_core_M, per_core_N, in0_block_w
        self.out_subblock_h, self.out_subblock_w = out_subblock_h, out_subblock_w
        self.out_block_h, self.out_block_w = per_core_M, per_core_N
        self.num_blocks = K // in0_block_w
        self.out_num_blocks_y = per_core_M // self.out_block_h
        self.out_num_blocks_x = per_core_N // self.out_block_w
        self.num_blocks_y = (M - 1) // per_core_M + 1
        self.num_blocks_x = (N - 1) // per_core_N + 1
        self.in0_block_num_tiles = out_subblock_h * in0_block_w * (self.out_block_h // out_subblock_h)
        self.out_block_tiles = self.out_block_h * self.out_block_w
        depth = MCAST_INPUT_BUFFERING_DEPTH if batch * self.num_blocks > 1 else 1
        self.in0_cb_size = self.out_block_h * in0_block_w * depth * TILE_BYTES_BF16
        self.in1_cb_size = self.out_block_w * in0_block_w * depth * TILE_BYTES_BF16

    def in0_sender_ct(self, a_t, sender_sem, receiver_sem, num_dests, num_cores):
        b = self
        ct = [
            1, b.K, b.in0_block_w, b.out_block_h * b.K,  # in0 strides: w, h, next inner block, next h block
            b.in0_block_w, b.out_block_h, b.in0_block_num_tiles,
            0, 0,  # last K tile's valid width / height: K is whole tiles
            0, 0, 0,  # extract_shard_sub_blocks, shard width, shard height: in0 is interleaved
            b.num_blocks, b.out_num_blocks_x, b.out_num_blocks_y,
            sender_sem, receiver_sem, num_dests, num_cores,
            b.M * b.K, b.batch,
            b.batch,  # in1_B (0.81.1's kernel): in1's batch count, the same B as in0's here
            0,  # in0_reuse_in_CB (0.81.1's kernel): no broadcast-A replay
            0, 0,  # batchB, sparsity page size: no sparsity
            1,  # bcast_A
            0,  # get_batch_from_reader
            0,  # fuse_op (all-gather)
        ]  # fmt: skip
        ct += accessor(a_t) + accessor()  # in0, then the sparsity placeholder
        return ct + [b.batch]  # num_batch_compute (0.81.1's kernel): the batches the receivers loop over

    def in1_sender_writer_ct(self, b_t, out_t, sender_sem, receiver_sem, num_dests, num_cores, bcast_batch):
        b = self
        ct = [
            1, b.N, b.in0_block_w * b.N, b.out_block_w,  # in1 strides: w, h, next inner block, next w block
            b.out_block_w, b.in0_block_w, b.out_block_w * b.in0_block_w,
            b.num_blocks, b.out_num_blocks_x, b.out_num_blocks_y,
            sender_sem, receiver_sem, num_dests, num_cores,
            b.K * b.N, b.batch, int(bcast_batch),
            0, 0,  # batchB, sparsity page size
            *self.out_strides(),
            0,  # in3 (bias) stride: no bias
            0, 0,  # fuse_op all-gather, reduce-scatter
            0,  # compact_output (0.81.1's kernel): outputs at their own batch slots
        ]  # fmt: skip
        return ct + accessor(b_t) + accessor() + accessor(out_t)

    def out_strides(self):
        b = self
        return [1, b.N, b.out_subblock_w, b.out_subblock_h * b.N, b.out_block_w, b.out_block_h * b.N,
                b.out_subblock_w, b.out_subblock_h, b.out_subblock_w * b.out_subblock_h, b.M * b.N]  # fmt: skip

    def in0_receiver_ct(self, sender_sem, receiver_sem):
        b = self
        return [b.in0_block_w * b.out_block_h, b.num_blocks, b.out_num_blocks_x, b.out_num_blocks_y,
                sender_sem, receiver_sem, b.batch, 0]  # fmt: skip

    def in1_receiver_writer_ct(self, out_t, sender_sem, receiver_sem):
        b = self
        ct = [b.out_block_w * b.in0_block_w, b.num_blocks, b.out_num_blocks_x, b.out_num_blocks_y,
              sender_sem, receiver_sem, b.batch, *self.out_strides(),
              0,  # in3 block width: no bias
              0]  # fuse_op reduce-scatter  # fmt: skip
        return ct + accessor(out_t)

    def compute_ct(self):
        b = self
        in1_num_subblocks = b.out_block_w // b.out_subblock_w
        return [
            b.in0_block_w, b.out_block_h // b.out_subblock_h, b.in0_block_num_tiles, b.out_subblock_h * b.in0_block_w,
            in1_num_subblocks, b.out_subblock_w * b.in0_block_w * in1_num_subblocks, b.out_subblock_w * in1_num_subblocks,
            b.num_blocks, b.out_num_blocks_x, b.out_num_blocks_y,
            b.out_subblock_h, b.out_subblock_w, b.out_subblock_h * b.out_subblock_w,
            b.batch, b.out_block_tiles,
            0, 0, 0,  # untilize_out, get_batch_from_reader, in0_transpose_tile
        ]  # fmt: skip

    # The writer's walk over the last (padded) row / column of blocks; with M and N whole blocks the
    # "last" values equal the full ones, computed as the factory computes them anyway.
    def out_w_walk(self, last_col):
        b = self
        last_block_w = (b.N % b.per_core_N or b.per_core_N) % b.out_block_w or b.out_block_w
        nonzero_w = (last_block_w - 1) // b.out_subblock_w + 1
        last_subblock_w = last_block_w % b.out_subblock_w or b.out_subblock_w
        if not last_col:
            return [b.out_block_w // b.out_subblock_w, b.out_block_w // b.out_subblock_w, b.out_subblock_w, 0, 0]
        return [b.out_block_w // b.out_subblock_w, nonzero_w, last_subblock_w,
                TILE_BYTES_BF16 * (b.out_subblock_w - last_subblock_w),
                b.out_subblock_w * b.out_subblock_h * (b.out_block_w // b.out_subblock_w - nonzero_w)]  # fmt: skip

    def out_h_walk(self, last_row):
        b = self
        last_block_h = (b.M % b.per_core_M or b.per_core_M) % b.out_block_h or b.out_block_h
        nonzero_h = (last_block_h - 1) // b.out_subblock_h + 1
        last_subblock_h = last_block_h % b.out_subblock_h or b.out_subblock_h
        if not last_row:
            return [b.out_block_h // b.out_subblock_h, b.out_block_h // b.out_subblock_h, b.out_subblock_h, 0]
        return [b.out_block_h // b.out_subblock_h, nonzero_h, last_subblock_h,
                (b.out_block_h // b.out_subblock_h - nonzero_h) * b.out_block_w * b.out_subblock_h]  # fmt: skip

    def last_block_h(self, last_row):
        return ((self.M % self.per_core_M or self.per_core_M) % self.out_block_h or self.out_block_h) if last_row \
            else self.out_block_h

    def last_block_w(self, last_col):
        return ((self.N % self.per_core_N or self.per_core_N) % self.out_block_w or self.out_block_w) if last_col \
            else self.out_block_w

    def num_blocks_w(self, last_col):
        last_per_core_N = self.N % self.per_core_N or self.per_core_N
        return (last_per_core_N - 1) // self.out_block_w + 1 if last_col else self.out_num_blocks_x

    def num_blocks_h(self, last_row):
        last_per_core_M = self.M % self.per_core_M or self.per_core_M
        return (last_per_core_M - 1) // self.out_block_h + 1 if last_row else self.out_num_blocks_y

    def in1_sender_writer_rt(self, b_t, out_t, in1_idx, in0_idx, mcast_start, mcast_end, last_col):
        b = self
        return [
            b_t.buffer_address(), b.per_core_N * in1_idx, *mcast_start, *mcast_end, 0,  # 0: sparsity address
            out_t.buffer_address(), in1_idx * b.per_core_N + in0_idx * b.per_core_M * b.N,
            self.last_block_w(last_col), b.out_block_h // b.out_subblock_h, b.out_subblock_h, 0,
            *self.out_w_walk(last_col),
            0, 0,  # bias address and first tile: no bias
            self.num_blocks_w(last_col),
        ]  # fmt: skip

    def compute_kernel(self, where):
        return ttnn.KernelDescriptor(
            kernel_source=f"{KERNELS}/compute/bmm_large_block_zm_fused_bias_activation.cpp",
            core_ranges=where,
            compile_time_args=self.compute_ct(),
            named_compile_time_args=[("cb_in0", 0), ("cb_in1", 1), ("cb_bias", 3), ("cb_out", 4),
                                     ("cb_intermed0", 5), ("cb_in0_intermediate", 8), ("cb_in1_intermediate", 9),
                                     ("cb_in0_transposed", 10)],  # fmt: skip
            config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=False),
        )

    def cbs(self, where):
        return [
            cb([(0, TILE_BYTES_BF16)], self.in0_cb_size, where),
            cb([(1, TILE_BYTES_BF16)], self.in1_cb_size, where),
            # Output and partials share one CB: interm0's format is the output's (no fp32 DST, no L1 acc).
            cb([(4, TILE_BYTES_BF16), (5, TILE_BYTES_BF16)], self.out_block_tiles * TILE_BYTES_BF16, where),
        ]


IN0_SENDER_NAMED = [("cb_in0", 0), ("cb_in0_sharded", 2), ("cb_sparsity", 6), ("cb_in0_intermediate", 8),
                    ("num_active", 0)]  # fmt: skip
IN1_SENDER_NAMED = [("cb_in1", 1), ("cb_bias", 3), ("cb_out", 4), ("cb_sparsity", 7), ("cb_in1_intermediate", 9),
                    ("num_active", 0)]  # fmt: skip
IN1_RECEIVER_NAMED = [("cb_in1", 1), ("cb_bias", 3), ("cb_out", 4)]
# The factories' NoCs: in0 on the preferred DRAM-write NoC (1), in1 on the preferred DRAM-read NoC (0).
# Each NoC's multicast rectangle runs from its start corner to its end corner, hence the swaps below.
IN0_NOC, IN1_NOC = "NOC_1", "NOC_0"


def dm(source, where, ct, rt, named, processor, noc, defines=()):
    return ttnn.KernelDescriptor(
        kernel_source=f"{KERNELS}/dataflow/{source}",
        core_ranges=where,
        compile_time_args=ct,
        named_compile_time_args=named,
        defines=list(defines),
        runtime_args=rt,
        config=ttnn.DataMovementConfigDescriptor(
            processor=getattr(ttnn.DataMovementProcessor, processor), noc=getattr(ttnn.NOC, noc)
        ),
    )


def physical(device, x, y):
    c = device.worker_core_from_logical_core(ttnn.CoreCoord(x, y))
    return c.x, c.y


# ReuseMcast2DDescriptorFactory (reuse_mcast_2d_descriptor.cpp): the left column reads in0 blocks from
# DRAM and multicasts them along its row, the top row reads in1 blocks and multicasts them down its
# column; the top row and the receivers write their output blocks.
def matmul_mcast_2d(device, a_t, b_t, out_t, blocking, bcast_batch=True):
    b = blocking
    cols, rows = b.num_blocks_x, b.num_blocks_y
    all_cores = cores(0, 0, cols - 1, rows - 1)
    split_half = cols > 2 and rows > 1
    half_core = cols // 2 if split_half else cols - 1
    in0_receiver_ranges, in1_receiver_ranges = [], []
    if cols > 1:
        in0_receiver_ranges.append((1, 0, cols - 1, 0))
    if rows > 1:
        in1_receiver_ranges.append((0, 1, 0, rows - 1))
    if cols > 1 and rows > 1:
        in0_receiver_ranges.append((1, 1, half_core, rows - 1))
        in1_receiver_ranges.append((1, 1, half_core, rows - 1))
    other_noc_cores = (half_core + 1, 1, cols - 1, rows - 1) if split_half else None

    sems = [ttnn.SemaphoreDescriptor(id=i, core_ranges=all_cores, initial_value=INVALID) for i in range(4)]
    in0_ct = b.in0_sender_ct(a_t, 0, 1, cols - 1, cols - 1)
    in1_ct = b.in1_sender_writer_ct(b_t, out_t, 2, 3, rows - 1, rows - 1, bcast_batch)
    in0_receiver_ct = b.in0_receiver_ct(0, 1)
    in1_receiver_ct = b.in1_receiver_writer_ct(out_t, 2, 3)

    rt = {name: ttnn.RuntimeArgs() for name in ("in0", "in0_rx", "in0_rx_other", "in1", "in1_rx", "in1_rx_other")}
    for y in range(rows):
        for x in range(cols):
            last_row, last_col = y == rows - 1, x == cols - 1
            if x == 0:
                # NoC 1 runs from the row's far end back to the core beside the sender.
                rt["in0"][x][y] = [a_t.buffer_address(), b.per_core_M * b.K * y, *physical(device, cols - 1, y),
                                   *physical(device, 1, y), b.last_block_h(last_row), 0]  # fmt: skip
            else:
                rt["in0_rx" if x <= half_core or y == 0 else "in0_rx_other"][x][y] = list(physical(device, 0, y))
            if y == 0:
                rt["in1"][x][y] = b.in1_sender_writer_rt(b_t, out_t, x, y, physical(device, x, 1),
                                                         physical(device, x, rows - 1), last_col)  # fmt: skip
            else:
                args = [*physical(device, x, 0), out_t.buffer_address(), x * b.per_core_N + y * b.per_core_M * b.N,
                        *b.out_h_walk(last_row), *b.out_w_walk(last_col),
                        b.num_blocks_h(last_row), b.num_blocks_w(last_col)]  # fmt: skip
                rt["in1_rx" if x <= half_core else "in1_rx_other"][x][y] = args

    kernels = [
        dm("reader_bmm_tile_layout_in0_sender_padding.cpp", cores(0, 0, 0, rows - 1), in0_ct, rt["in0"],
           IN0_SENDER_NAMED, "RISCV_1", IN0_NOC, [] if in0_receiver_ranges else [("SKIP_MCAST", "1")]),
        dm("reader_bmm_tile_layout_in1_sender_writer_padding.cpp", cores(0, 0, cols - 1, 0), in1_ct, rt["in1"],
           IN1_SENDER_NAMED, "RISCV_0", IN1_NOC, [] if in1_receiver_ranges else [("SKIP_MCAST", "1")]),
    ]  # fmt: skip
    if in1_receiver_ranges:
        kernels.append(dm("reader_bmm_tile_layout_in1_receiver_writer_padding.cpp", core_set(in1_receiver_ranges),
                          in1_receiver_ct, rt["in1_rx"], IN1_RECEIVER_NAMED, "RISCV_0", IN1_NOC))  # fmt: skip
    if in0_receiver_ranges:
        kernels.append(dm("reader_bmm_tile_layout_in0_receiver.cpp", core_set(in0_receiver_ranges), in0_receiver_ct,
                          rt["in0_rx"], [("cb_in0", 0)], "RISCV_1", IN0_NOC))  # fmt: skip
    if other_noc_cores:
        # The right half of the receivers take the other NoC of each pair.
        kernels.append(dm("reader_bmm_tile_layout_in1_receiver_writer_padding.cpp", core_set([other_noc_cores]),
                          in1_receiver_ct, rt["in1_rx_other"], IN1_RECEIVER_NAMED, "RISCV_0", IN0_NOC))  # fmt: skip
        kernels.append(dm("reader_bmm_tile_layout_in0_receiver.cpp", core_set([other_noc_cores]), in0_receiver_ct,
                          rt["in0_rx_other"], [("cb_in0", 0)], "RISCV_1", IN1_NOC))  # fmt: skip
    kernels.append(b.compute_kernel(all_cores))
    program = ttnn.ProgramDescriptor(kernels=kernels, semaphores=sems, cbs=b.cbs(all_cores))
    return ttnn.generic_op([a_t, b_t, out_t], program)


# ReuseMcast1DDescriptorFactory (reuse_mcast_1d_descriptor.cpp), mcast_in0 with interleaved in0: the
# cores with work are numbered row-major over the grid; core (0, 0) reads all of in0 and multicasts
# it over the bounding box of those cores, and every core reads and writes its own columns of in1 and C.
def matmul_mcast_1d_in0(device, a_t, b_t, out_t, blocking, bcast_batch=True):
    b = blocking
    assert b.num_blocks_y == 1, "mcast_in0 gives every core all of in0's rows"
    grid_x = device.compute_with_storage_grid_size().x
    n = b.num_blocks_x * b.num_blocks_y
    coords = [(i % grid_x, i // grid_x) for i in range(n)]
    box = (0, 0, min(n, grid_x) - 1, (n - 1) // grid_x)
    box_cores = (box[2] + 1) * (box[3] + 1)
    all_ranges = [(0, 0, grid_x - 1, n // grid_x - 1)] if n >= grid_x else []
    if n % grid_x:
        all_ranges.append((0, n // grid_x, n % grid_x - 1, n // grid_x))
    all_cores = core_set(all_ranges)
    receivers = [c for c in coords if c != (0, 0)]

    sems = [ttnn.SemaphoreDescriptor(id=i, core_ranges=all_cores, initial_value=INVALID) for i in range(2)]
    in0_ct = b.in0_sender_ct(a_t, 0, 1, n - 1, box_cores - 1)
    in1_ct = b.in1_sender_writer_ct(b_t, out_t, 0, 0, 0, 0, bcast_batch)  # no in1 multicast

    # NoC 1 runs from the box's bottom-right corner to its top-left.
    start, end = physical(device, box[2], box[3]), physical(device, 0, 0)
    in0_rt, in0_rx_rt, in1_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for i, (x, y) in enumerate(coords):
        ox, oy = i % b.num_blocks_x, i // b.num_blocks_x
        if (x, y) == (0, 0):
            in0_rt[x][y] = [a_t.buffer_address(), b.per_core_M * b.K * oy, *start, *end, b.out_block_h, 0]
        else:
            in0_rx_rt[x][y] = list(physical(device, 0, 0))
        in1_rt[x][y] = b.in1_sender_writer_rt(b_t, out_t, ox, oy, (0, 0), (0, 0), ox == b.num_blocks_x - 1)

    kernels = [
        dm("reader_bmm_tile_layout_in0_sender_padding.cpp", cores(0, 0, 0, 0), in0_ct, in0_rt, IN0_SENDER_NAMED,
           "RISCV_1", IN0_NOC, [] if box_cores > 1 else [("SKIP_MCAST", "1")]),
    ]  # fmt: skip
    if receivers:
        rx_ranges = [(x, y, x, y) for (x, y) in receivers]
        kernels.append(dm("reader_bmm_tile_layout_in0_receiver.cpp", core_set(rx_ranges), b.in0_receiver_ct(0, 1),
                          in0_rx_rt, [("cb_in0", 0)], "RISCV_1", IN0_NOC))  # fmt: skip
    kernels.append(dm("reader_bmm_tile_layout_in1_sender_writer_padding.cpp", all_cores, in1_ct, in1_rt,
                      IN1_SENDER_NAMED, "RISCV_0", IN1_NOC, [("SKIP_MCAST", "1")]))  # fmt: skip
    kernels.append(b.compute_kernel(all_cores))
    program = ttnn.ProgramDescriptor(kernels=kernels, semaphores=sems, cbs=b.cbs(all_cores))
    return ttnn.generic_op([a_t, b_t, out_t], program)


def run_mcast(device, launch, blocking):
    M, K, N = blocking.M, blocking.K, blocking.N
    a, b = bf16_inputs(M * TILE, K * TILE, N * TILE, seed=M * 100 + N)
    a_t, b_t = to_device(device, a), to_device(device, b)
    out_t = output_like(device, [1, 1, M * TILE, N * TILE])
    check(launch(device, a_t, b_t, out_t, blocking), a, b)


@pytest.mark.parametrize(
    "blocking",
    [
        # 2 x 2 cores, two K blocks: partials spill to the intermediate CB and reload.
        Blocking(M=4, K=4, N=4, per_core_M=2, per_core_N=2, in0_block_w=2, out_subblock_h=1, out_subblock_w=2),
        # 3 x 2 cores: the right half of the receivers run on the other NoC of each pair.
        Blocking(M=2, K=2, N=3, per_core_M=1, per_core_N=1, in0_block_w=1, out_subblock_h=1, out_subblock_w=1),
    ],
    ids=["2x2_spill", "3x2_split_noc"],
)
def test_matmul_mcast_2d(device, blocking):
    run_mcast(device, matmul_mcast_2d, blocking)


@pytest.mark.parametrize(
    "blocking",
    [
        # 4 cores in a row, two K blocks.
        Blocking(M=2, K=4, N=8, per_core_M=2, per_core_N=2, in0_block_w=2, out_subblock_h=1, out_subblock_w=2),
    ],
    ids=["4_cores"],
)
def test_matmul_mcast_1d_in0(device, blocking):
    run_mcast(device, matmul_mcast_1d_in0, blocking)


# ---------------------------------------------------------------------------------------------------
# MatmulMultiCoreProgramFactory (matmul_multicore_program_factory.cpp): the output tiles split over
# the grid by split_work_to_cores (cores numbered down the columns), one output tile at a time.
# ---------------------------------------------------------------------------------------------------
# Its writer (matmul's writer_unary_interleaved_start_id.cpp) is a Metal 2.0 kernel: get_arg(args::num_pages),
# dfb::out and tensor::output, bound here as the ProgramSpec binds them (ditmk.ttnn.experimental).


def matmul_multi_core(device, a_t, b_t, out_t, batch, Mt, Kt, Nt, bcast_batch):
    grid = device.compute_with_storage_grid_size()
    total = batch * Mt * Nt
    num_cores, all_cores, group_1, group_2, tiles_1, tiles_2 = ttnn.split_work_to_cores(grid, total)
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    written = 0
    for i in range(num_cores):
        x, y = i // grid.y, i % grid.y
        tiles = tiles_1 if i < tiles_core_count(group_1) else tiles_2
        reader_rt[x][y] = [a_t.buffer_address(), b_t.buffer_address(), Mt, Kt, Nt, Mt * Kt, Kt * Nt, batch,
                           int(bcast_batch), written, tiles, Mt * Nt]  # fmt: skip
        writer_rt[x][y] = [tiles, written]  # num_pages, start_id
        written += tiles
    tile = TILE_BYTES_BF16
    kernels = [
        ttnn.KernelDescriptor(
            kernel_source=f"{KERNELS}/dataflow/reader_bmm_8bank_output_tiles_partitioned.cpp",
            core_ranges=all_cores,
            compile_time_args=[0, 0] + accessor(a_t) + accessor(b_t),  # last K tile's valid width / height
            named_compile_time_args=[("cb_in0", 0), ("cb_in1", 1)],
            runtime_args=reader_rt,
            config=ttnn.ReaderConfigDescriptor(),
        ),
        experimental.bind(
            ttnn.KernelDescriptor(
                kernel_source=f"{KERNELS}/dataflow/writer_unary_interleaved_start_id.cpp",
                core_ranges=all_cores,
                runtime_args=writer_rt,
                config=ttnn.WriterConfigDescriptor(),
            ),
            experimental.Metal2Bindings(named_runtime_args=["num_pages", "start_id"], dataflow_buffers={"out": 16},
                                        tensors=[("output", out_t)]),  # fmt: skip
        ),
    ]
    for group, tiles in ((group_1, tiles_1), (group_2, tiles_2)):
        if tiles_core_count(group):
            kernels.append(
                ttnn.KernelDescriptor(
                    kernel_source=f"{KERNELS}/compute/bmm.cpp",
                    core_ranges=group,
                    compile_time_args=[1, 1, Kt, tiles],  # B, Mt, Nt folded into one loop of `tiles`
                    named_compile_time_args=[("cb_in0", 0), ("cb_in1", 1), ("cb_out", 16)],
                    config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4),
                )
            )
    cbs = [cb([(0, tile)], 2 * tile, all_cores), cb([(1, tile)], 2 * tile, all_cores),
           cb([(16, tile)], 2 * tile, all_cores)]  # fmt: skip
    return ttnn.generic_op([a_t, b_t, out_t], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


def tiles_core_count(group):
    return group.num_cores() if group is not None else 0


def test_matmul_multi_core(device):
    Mt, Kt, Nt = 2, 3, 4
    a, b = bf16_inputs(Mt * TILE, Kt * TILE, Nt * TILE, seed=3)
    a_t, b_t = to_device(device, a), to_device(device, b)
    out_t = output_like(device, [1, 1, Mt * TILE, Nt * TILE])
    check(matmul_multi_core(device, a_t, b_t, out_t, 1, Mt, Kt, Nt, bcast_batch=True), a, b)
