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


def accessor(tensor=None):
    args = ttnn.TensorAccessorArgs(tensor) if tensor is not None else ttnn.TensorAccessorArgs()
    return list(args.get_compile_time_args())


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
# ReuseMcast2DDescriptorFactory (reuse_mcast_2d_descriptor.cpp): the left column reads in0 blocks from
# DRAM and multicasts them along its row, the top row reads in1 blocks and multicasts them down its
# column; every core computes a per_core_M x per_core_N block and the top row / the receivers write it.
# Interleaved DRAM tensors, no bias, no fused activation, no transpose_mcast, fp32_dest_acc_en off.
# ---------------------------------------------------------------------------------------------------
def matmul_mcast_2d(device, a_t, b_t, out_t, *, M, K, N, per_core_M, per_core_N, in0_block_w,
                    out_subblock_h, out_subblock_w, batch=1, bcast_batch=True):  # fmt: skip
    tile = TILE_BYTES_BF16
    out_block_h, out_block_w = per_core_M, per_core_N
    num_blocks = K // in0_block_w
    in0_block_h, in1_block_w = out_block_h, out_block_w
    out_num_blocks_y, out_num_blocks_x = per_core_M // out_block_h, per_core_N // out_block_w
    depth = MCAST_INPUT_BUFFERING_DEPTH if batch * num_blocks > 1 else 1
    in0_CB_size = out_block_h * in0_block_w * depth * tile
    in1_CB_size = out_block_w * in0_block_w * depth * tile
    out_block_tiles = out_block_h * out_block_w
    num_blocks_y, num_blocks_x = (M - 1) // per_core_M + 1, (N - 1) // per_core_N + 1
    cols, rows = num_blocks_x, num_blocks_y
    all_cores = cores(0, 0, cols - 1, rows - 1)

    # Core roles: left column sends in0, top row sends in1; the rest receive.
    in0_sender = cores(0, 0, 0, rows - 1)
    in1_sender = cores(0, 0, cols - 1, 0)
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
    in0_sender_sem, in0_receiver_sem, in1_sender_sem, in1_receiver_sem = 0, 1, 2, 3

    in0_block_num_tiles = out_subblock_h * in0_block_w * (out_block_h // out_subblock_h)
    in0_sender_ct = [
        1, K, in0_block_w, in0_block_h * K,  # in0 strides: w, h, next inner block, next h block
        in0_block_w, in0_block_h, in0_block_num_tiles,
        0, 0,  # last K tile's valid width / height: K is whole tiles
        0, 0, 0,  # extract_shard_sub_blocks, shard width, shard height: in0 is interleaved
        num_blocks, out_num_blocks_x, out_num_blocks_y,
        in0_sender_sem, in0_receiver_sem,
        num_blocks_x - 1, num_blocks_x - 1,  # mcast destinations, mcast cores
        M * K, batch,
        batch,  # in1_B (0.81.1's kernel): in1's batch count, the same B as in0's here
        0,  # in0_reuse_in_CB (0.81.1's kernel): no broadcast-A replay
        0, 0,  # batchB, sparsity page size: no sparsity
        1,  # bcast_A
        0,  # get_batch_from_reader
        0,  # fuse_op (all-gather)
    ]  # fmt: skip
    in0_sender_ct += accessor(a_t) + accessor()  # in0, then the sparsity placeholder
    in0_sender_ct += [batch]  # num_batch_compute (0.81.1's kernel): the batches the receivers loop over

    in1_sender_ct = [
        1, N, in0_block_w * N, in1_block_w,  # in1 strides: w, h, next inner block, next w block
        in1_block_w, in0_block_w, in1_block_w * in0_block_w,
        num_blocks, out_num_blocks_x, out_num_blocks_y,
        in1_sender_sem, in1_receiver_sem,
        num_blocks_y - 1, num_blocks_y - 1,
        K * N, batch, int(bcast_batch),
        0, 0,  # batchB, sparsity page size
        1, N, out_subblock_w, out_subblock_h * N, out_block_w, out_block_h * N,  # out strides
        out_subblock_w, out_subblock_h, out_subblock_w * out_subblock_h, M * N,
        0,  # in3 (bias) stride: no bias
        0, 0,  # fuse_op all-gather, reduce-scatter
        0,  # compact_output (0.81.1's kernel): outputs at their own batch slots
    ]  # fmt: skip
    in1_sender_ct += accessor(b_t) + accessor() + accessor(out_t)

    in0_receiver_ct = [in0_block_w * in0_block_h, num_blocks, out_num_blocks_x, out_num_blocks_y,
                       in0_sender_sem, in0_receiver_sem, batch, 0]  # fmt: skip
    in1_receiver_ct = [
        in1_block_w * in0_block_w, num_blocks, out_num_blocks_x, out_num_blocks_y,
        in1_sender_sem, in1_receiver_sem, batch,
        1, N, out_subblock_w, out_subblock_h * N, out_block_w, out_block_h * N,
        out_subblock_w, out_subblock_h, out_subblock_w * out_subblock_h, M * N,
        0,  # in3 block width: no bias
        0,  # fuse_op reduce-scatter
    ]  # fmt: skip
    in1_receiver_ct += accessor(out_t)

    in1_num_subblocks = out_block_w // out_subblock_w
    compute_ct = [
        in0_block_w, out_block_h // out_subblock_h, in0_block_num_tiles, out_subblock_h * in0_block_w,
        in1_num_subblocks, out_subblock_w * in0_block_w * in1_num_subblocks, out_subblock_w * in1_num_subblocks,
        num_blocks, out_num_blocks_x, out_num_blocks_y,
        out_subblock_h, out_subblock_w, out_subblock_h * out_subblock_w,
        batch, out_block_tiles,
        0, 0, 0,  # untilize_out, get_batch_from_reader, in0_transpose_tile
    ]  # fmt: skip

    # Padding of the last row / column of blocks (none when M and N are whole blocks; computed anyway).
    last_per_core_M = M % per_core_M or per_core_M
    last_per_core_N = N % per_core_N or per_core_N
    last_out_block_h = last_per_core_M % out_block_h or out_block_h
    last_out_block_w = last_per_core_N % out_block_w or out_block_w
    last_out_num_blocks_h = (last_per_core_M - 1) // out_block_h + 1
    last_out_num_blocks_w = (last_per_core_N - 1) // out_block_w + 1
    last_nonzero_subblocks_h = (last_out_block_h - 1) // out_subblock_h + 1
    last_nonzero_subblocks_w = (last_out_block_w - 1) // out_subblock_w + 1
    last_subblock_h = last_out_block_h % out_subblock_h or out_subblock_h
    last_subblock_w = last_out_block_w % out_subblock_w or out_subblock_w
    last_subblock_tiles_addr_skip = tile * (out_subblock_w - last_subblock_w)
    last_block_tiles_w_skip = out_subblock_w * out_subblock_h * (out_block_w // out_subblock_w - last_nonzero_subblocks_w)
    last_block_tiles_h_skip = (out_block_h // out_subblock_h - last_nonzero_subblocks_h) * out_block_w * out_subblock_h
    w_full = [out_block_w // out_subblock_w, out_block_w // out_subblock_w, out_subblock_w, 0, 0]
    w_last = [out_block_w // out_subblock_w, last_nonzero_subblocks_w, last_subblock_w,
              last_subblock_tiles_addr_skip, last_block_tiles_w_skip]  # fmt: skip
    h_full = [out_block_h // out_subblock_h, out_block_h // out_subblock_h, out_subblock_h, 0]
    h_last = [out_block_h // out_subblock_h, last_nonzero_subblocks_h, last_subblock_h, last_block_tiles_h_skip]

    def physical(x, y):
        c = device.worker_core_from_logical_core(ttnn.CoreCoord(x, y))
        return c.x, c.y

    in0_sender_rt, in0_receiver_rt, in0_other_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    in1_sender_rt, in1_receiver_rt, in1_other_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for y in range(rows):
        for x in range(cols):
            in0_idx, in1_idx = y, x
            # in0 goes on NoC 1 (the factory's preferred DRAM-write NoC), in1 on NoC 0: each NoC's
            # multicast rectangle runs from its start corner to its end corner, hence the swaps.
            in0_start, in0_end = physical(cols - 1, y), physical(1, y)
            in1_start, in1_end = physical(x, 1), physical(x, rows - 1)
            if in1_idx == 0:
                in0_sender_rt[x][y] = [a_t.buffer_address(), per_core_M * K * in0_idx, *in0_start, *in0_end,
                                       last_out_block_h if in0_idx == rows - 1 else out_block_h, 0]  # fmt: skip
            elif x <= half_core or y == 0:
                in0_receiver_rt[x][y] = list(physical(0, y))
            else:
                in0_other_rt[x][y] = list(physical(0, y))
            out_start = in1_idx * per_core_N + in0_idx * per_core_M * N
            if in0_idx == 0:
                last_col = in1_idx == cols - 1
                in1_sender_rt[x][y] = [
                    b_t.buffer_address(), per_core_N * in1_idx, *in1_start, *in1_end, 0,
                    out_t.buffer_address(), out_start,
                    last_out_block_w if last_col else out_block_w,
                    out_block_h // out_subblock_h, out_subblock_h, 0,
                    *(w_last if last_col else w_full),
                    0, 0,  # bias address and first tile: no bias
                    last_out_num_blocks_w if last_col else out_num_blocks_x,
                ]  # fmt: skip
            else:
                last_col, last_row = in1_idx == cols - 1, in0_idx == rows - 1
                args = [*physical(x, 0), out_t.buffer_address(), out_start,
                        *(h_last if last_row else h_full), *(w_last if last_col else w_full),
                        last_out_num_blocks_h if last_row else out_num_blocks_y,
                        last_out_num_blocks_w if last_col else out_num_blocks_x]  # fmt: skip
                if x <= half_core:
                    in1_receiver_rt[x][y] = args
                else:
                    in1_other_rt[x][y] = args

    def dm(source, where, ct, rt, named, processor, noc, defines=()):
        return ttnn.KernelDescriptor(
            kernel_source=f"{KERNELS}/dataflow/{source}",
            core_ranges=where,
            compile_time_args=ct,
            named_compile_time_args=named,
            defines=list(defines),
            runtime_args=rt,
            config=ttnn.DataMovementConfigDescriptor(processor=processor, noc=noc),
        )

    R0, R1 = ttnn.DataMovementProcessor.RISCV_0, ttnn.DataMovementProcessor.RISCV_1
    in0_noc, in1_noc = ttnn.NOC.NOC_1, ttnn.NOC.NOC_0
    in0_sender_defines = [] if in0_receiver_ranges else [("SKIP_MCAST", "1")]
    in1_sender_defines = [] if in1_receiver_ranges else [("SKIP_MCAST", "1")]
    kernels = [
        dm("reader_bmm_tile_layout_in0_sender_padding.cpp", in0_sender, in0_sender_ct, in0_sender_rt,
           [("cb_in0", 0), ("cb_in0_sharded", 2), ("cb_sparsity", 6), ("cb_in0_intermediate", 8), ("num_active", 0)],
           R1, in0_noc, in0_sender_defines),
        dm("reader_bmm_tile_layout_in1_sender_writer_padding.cpp", in1_sender, in1_sender_ct, in1_sender_rt,
           [("cb_in1", 1), ("cb_bias", 3), ("cb_out", 4), ("cb_sparsity", 7), ("cb_in1_intermediate", 9),
            ("num_active", 0)],
           R0, in1_noc, in1_sender_defines),
    ]  # fmt: skip
    receiver_named = [("cb_in1", 1), ("cb_bias", 3), ("cb_out", 4)]
    if in1_receiver_ranges:
        kernels.append(dm("reader_bmm_tile_layout_in1_receiver_writer_padding.cpp", core_set(in1_receiver_ranges),
                          in1_receiver_ct, in1_receiver_rt, receiver_named, R0, in1_noc))  # fmt: skip
    if in0_receiver_ranges:
        kernels.append(dm("reader_bmm_tile_layout_in0_receiver.cpp", core_set(in0_receiver_ranges), in0_receiver_ct,
                          in0_receiver_rt, [("cb_in0", 0)], R1, in0_noc))  # fmt: skip
    if other_noc_cores:
        # The right half of the receivers use the other NoC of each pair.
        kernels.append(dm("reader_bmm_tile_layout_in1_receiver_writer_padding.cpp", core_set([other_noc_cores]),
                          in1_receiver_ct, in1_other_rt, receiver_named, R0, ttnn.NOC.NOC_1))  # fmt: skip
        kernels.append(dm("reader_bmm_tile_layout_in0_receiver.cpp", core_set([other_noc_cores]), in0_receiver_ct,
                          in0_other_rt, [("cb_in0", 0)], R1, ttnn.NOC.NOC_0))  # fmt: skip
    kernels.append(
        ttnn.KernelDescriptor(
            kernel_source=f"{KERNELS}/compute/bmm_large_block_zm_fused_bias_activation.cpp",
            core_ranges=all_cores,
            compile_time_args=compute_ct,
            named_compile_time_args=[("cb_in0", 0), ("cb_in1", 1), ("cb_bias", 3), ("cb_out", 4),
                                     ("cb_intermed0", 5), ("cb_in0_intermediate", 8), ("cb_in1_intermediate", 9),
                                     ("cb_in0_transposed", 10)],  # fmt: skip
            config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=False),
        )
    )
    cbs = [
        cb([(0, tile)], in0_CB_size, all_cores),
        cb([(1, tile)], in1_CB_size, all_cores),
        # Output and partials share one CB: interm0's format is the output's (no fp32 DST, no L1 acc).
        cb([(4, tile), (5, tile)], out_block_tiles * tile, all_cores),
    ]
    return ttnn.generic_op([a_t, b_t, out_t], ttnn.ProgramDescriptor(kernels=kernels, semaphores=sems, cbs=cbs))


@pytest.mark.parametrize(
    "grid, per_core, K, in0_block_w, subblock",
    [
        ((2, 2), (2, 2), 4, 2, (1, 2)),  # 2 x 2 cores, two K blocks: partials spill and reload
        ((3, 2), (1, 2), 2, 1, (1, 1)),  # 3 columns: the right receivers run on the other NoCs
    ],
    ids=["2x2", "3x2_split_noc"],
)
def test_matmul_mcast_2d(device, grid, per_core, K, in0_block_w, subblock):
    cols, rows = grid
    per_core_M, per_core_N = per_core
    M, N = rows * per_core_M, cols * per_core_N
    a, b = bf16_inputs(M * TILE, K * TILE, N * TILE, seed=2)
    a_t, b_t = to_device(device, a), to_device(device, b)
    out_t = output_like(device, [1, 1, M * TILE, N * TILE])
    out = matmul_mcast_2d(device, a_t, b_t, out_t, M=M, K=K, N=N, per_core_M=per_core_M, per_core_N=per_core_N,
                          in0_block_w=in0_block_w, out_subblock_h=subblock[0], out_subblock_w=subblock[1])  # fmt: skip
    check(out, a, b)
