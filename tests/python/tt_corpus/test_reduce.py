"""Corpus: ttnn 0.81.1's generic reduce kernels (row, column and scalar), checked against torch.

0.81.1's reduce factories (reduction/generic/device/reduce_op_multi_core_w_program_factory.cpp,
reduce_op_single_core_hw_program_factory.cpp, ...) build Metal 2.0 ProgramSpecs: reduce.cpp,
reader_unary_reduce_universal_start_id.cpp and the metal2 fork of writer_unary_interleaved_start_id
read their args as get_arg(args::Ht), their buffers as dfb::in0 / dfb::scaler / dfb::out and their
tensors as tensor::src / tensor::dst. Each program below is the factory's, launched through
ditmk.ttnn.experimental (the ProgramSpec's bindings on a ttnn.KernelDescriptor):

- row: the multi-core W factory: NC*Ht tile rows split over the cores (split_work_to_cores, here
  over a 2x2 sub-grid so the split leaves two core groups, each with its own compute kernel and Ht),
  each core reading whole rows and writing one tile per row.
- scalar: the single-core HW factory: one core reads every tile, writes one.
- column: the HW factory's program with REDUCE_COL: 0.81.1's H factory reads with the
  column-partitioned reader instead, which hands tiles over in N C W_skip H W_chunk order; with
  Wt no wider than a DEST chunk that order is the row-major order this reader reads in.

The buffers are the factory's: in (2 tiles, the input's format), scaler (1 tile, bfloat16),
out (2 tiles, the output's format).

The factory's programs run whole: reader, reduce.cpp (0.81.1's compute_kernel_lib::reduce) and the
Metal 2.0 writer. test_reduce_row_dataflow also launches the W factory's program with ditmk's
reduce_row example kernel (examples/tt/reduce_row) in reduce.cpp's place, which keeps the dataflow
half checked on its own."""
import os
from pathlib import Path

import pytest
import torch

import ditmk.ttnn as ttnn
from ditmk.ttnn import experimental
from corpus import assert_close

pytestmark = pytest.mark.tt_corpus

TILE = 32
REDUCE = "ttnn/cpp/ttnn/operations/reduction/generic/device/kernels"
READER = f"{REDUCE}/dataflow/reader_unary_reduce_universal_start_id.cpp"
COMPUTE = f"{REDUCE}/compute/reduce.cpp"
WRITER = "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id_metal2.cpp"
IN_CB, SCALER_CB, OUT_CB = 0, 2, 3
ONE = 0x3F800000  # 1.0f: the scaler of a sum
SOURCE = Path(os.environ.get("DITMK_SOURCE_DIR", Path(__file__).resolve().parents[3])).resolve()
# ditmk's own row reduce (legacy compute: compile-time args [Ht, Wt], CBs in 0, scaler 2, out 16)
EXAMPLE_COMPUTE = str(SOURCE / "examples/tt/reduce_row/kernels/reduce_row.cpp")
EXAMPLE_OUT_CB = 16


def bits(value):
    return int(torch.tensor([value], dtype=torch.float32).view(torch.int32).item()) & 0xFFFFFFFF


# reduce_op_utils::get_defines: the op and the dimension as the compute API's enums.
def defines(op, dim):
    return [("REDUCE_OP", f"ckernel::PoolType::{op}"), ("REDUCE_DIM", f"ckernel::ReduceDim::{dim}")]


def cbs(cores, in_dtype, out_dtype, out_cb=OUT_CB):
    def cb(index, dtype, entries):
        size = ttnn.TILE_SIZE * ttnn.TILE_SIZE * 2 if dtype == ttnn.bfloat16 else ttnn.TILE_SIZE * ttnn.TILE_SIZE * 4
        return ttnn.CBDescriptor(total_size=entries * size, core_ranges=cores,
                                 format_descriptors=[ttnn.CBFormatDescriptor(index, dtype, size)])  # fmt: skip

    return [cb(IN_CB, in_dtype, 2), cb(SCALER_CB, ttnn.bfloat16, 1), cb(out_cb, out_dtype, 2)]


def reader(cores, rt, x_t, reduce_defines):
    k = ttnn.KernelDescriptor(kernel_source=READER, core_ranges=cores, named_compile_time_args=[("tiles_per_batch", 1)],
                              defines=reduce_defines, runtime_args=rt, config=ttnn.ReaderConfigDescriptor())  # fmt: skip
    return experimental.bind(k, experimental.Metal2Bindings(
        named_runtime_args=["num_tiles", "start_id", "scaler_bits"],
        dataflow_buffers={"in0": IN_CB, "scaler": SCALER_CB}, tensors=[("src", x_t)]))  # fmt: skip


def writer(cores, rt, out_t, reduce_defines, out_cb=OUT_CB):
    k = ttnn.KernelDescriptor(kernel_source=WRITER, core_ranges=cores, defines=reduce_defines, runtime_args=rt,
                              config=ttnn.WriterConfigDescriptor())  # fmt: skip
    return experimental.bind(k, experimental.Metal2Bindings(
        named_runtime_args=["num_pages", "start_id"], dataflow_buffers={"out": out_cb}, tensors=[("dst", out_t)]))


def compute(cores, Ht, Wt, NC, reduce_defines):
    k = ttnn.KernelDescriptor(kernel_source=COMPUTE, core_ranges=cores, defines=reduce_defines,
                              named_compile_time_args=[("Ht", Ht), ("Wt", Wt), ("NC", NC),
                                                       ("post_mul_scaler_bits", ONE), ("enable_fp32_sfpu", 0)],
                              config=ttnn.ComputeConfigDescriptor())  # fmt: skip
    return experimental.bind(k, experimental.Metal2Bindings(
        dataflow_buffers={"in0": IN_CB, "scaler": SCALER_CB, "out": OUT_CB}))


def example_compute(cores, Ht, Wt, reduce_defines):
    return ttnn.KernelDescriptor(kernel_source=EXAMPLE_COMPUTE, core_ranges=cores, compile_time_args=[Ht, Wt],
                                 defines=reduce_defines, config=ttnn.ComputeConfigDescriptor())  # fmt: skip


def reduce_w_program(x_t, out_t, op, scaler, grid, example=False):
    """ReduceMultiCoreWProgramFactory over the sub-grid `grid` (its sub_core_grids path); with
    `example`, ditmk's reduce_row kernel computes instead of reduce.cpp."""
    N, C, H, W = x_t.shape
    NC, Ht, Wt = N * C, H // TILE, W // TILE
    num_rows = NC * Ht
    num_cores, all_cores, group_1, group_2, rows_1, rows_2 = ttnn.split_work_to_cores(grid, num_rows)
    reduce_defines = defines(op, "REDUCE_ROW")
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    # the sub-grid's cores range by range, each row by row, as the factory walks them
    cores = [ttnn.CoreCoord(x, y) for r in all_cores.ranges()
             for y in range(r.start.y, r.end.y + 1) for x in range(r.start.x, r.end.x + 1)]  # fmt: skip
    assert len(cores) == num_cores
    tiles_read = 0
    for core in cores:
        rows = rows_1 if group_1.contains(core) else rows_2
        reader_rt[core.x][core.y] = [rows * Wt, tiles_read, bits(scaler)]
        writer_rt[core.x][core.y] = [rows, tiles_read // Wt]
        tiles_read += rows * Wt
    assert tiles_read == num_rows * Wt
    out_cb = EXAMPLE_OUT_CB if example else OUT_CB
    kernels = [reader(all_cores, reader_rt, x_t, reduce_defines),
               writer(all_cores, writer_rt, out_t, reduce_defines, out_cb)]  # fmt: skip
    for group, rows in ((group_1, rows_1), (group_2, rows_2)):
        if not group.empty():
            kernels.append(example_compute(group, rows, Wt, reduce_defines) if example
                           else compute(group, rows, Wt, 1, reduce_defines))  # fmt: skip
    program = ttnn.ProgramDescriptor(kernels=kernels, semaphores=[],
                                     cbs=cbs(all_cores, x_t.dtype, out_t.dtype, out_cb))  # fmt: skip
    return ttnn.generic_op([x_t, out_t], program)


def reduce_single_core_program(x_t, out_t, op, dim, scaler):
    """ReduceSingleCoreHwProgramFactory (REDUCE_SCALAR), and with REDUCE_COL the column reduce."""
    N, C, H, W = x_t.shape
    NC, Ht, Wt = N * C, H // TILE, W // TILE
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    reduce_defines = defines(op, dim)
    num_tiles = NC * Ht * Wt
    out_tiles = num_tiles // (Ht * Wt) * (Wt if dim == "REDUCE_COL" else 1)
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    reader_rt[0][0] = [num_tiles, 0, bits(scaler)]
    writer_rt[0][0] = [out_tiles, 0]
    kernels = [reader(core, reader_rt, x_t, reduce_defines), writer(core, writer_rt, out_t, reduce_defines),
               compute(core, Ht, Wt, NC, reduce_defines)]  # fmt: skip
    program = ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs(core, x_t.dtype, out_t.dtype))
    return ttnn.generic_op([x_t, out_t], program)


def inputs(device, shape, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=g).to(torch.bfloat16)
    return x, ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


def output(device, shape):
    return ttnn.allocate_tensor_on_device(ttnn.Shape(list(shape)), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                          ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip


def row_case(device, op, example):
    x, x_t = inputs(device, (2, 3, 32, 96), 11)  # 6 tile rows of 3 tiles
    out_t = output(device, (2, 3, 32, 32))
    # 6 rows over 4 cores: two core groups, 2 rows on each core of the first, 1 on the second's
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 1))])
    scaler = 1.0 if op == "MAX" else 1.0 / 96  # the factory's mean: a sum scaled by 1/W
    out = reduce_w_program(x_t, out_t, op, scaler, grid, example)
    want = x.float().amax(dim=-1, keepdim=True) if op == "MAX" else x.float().mean(dim=-1, keepdim=True)
    got = ttnn.to_torch(out).float()[..., :1]
    assert_close(got, want, pcc=0.999, atol=0.02, rtol=0.02)


@pytest.mark.parametrize("op", ["SUM", "MAX"])
def test_reduce_row_dataflow(device, op):
    """The W factory's reader and Metal 2.0 writer, as it binds them, around ditmk's reduce_row."""
    row_case(device, op, example=True)


@pytest.mark.parametrize("op", ["SUM", "MAX"])
def test_reduce_row_multi_core(device, op):
    row_case(device, op, example=False)


@pytest.mark.parametrize("dim", ["REDUCE_COL", "REDUCE_SCALAR"])
def test_reduce_single_core(device, dim):
    x, x_t = inputs(device, (1, 2, 64, 96), 12)
    out_t = output(device, (1, 2, 32, 96 if dim == "REDUCE_COL" else 32))
    out = reduce_single_core_program(x_t, out_t, "SUM", dim, 1.0)
    if dim == "REDUCE_COL":
        want = x.float().sum(dim=-2, keepdim=True)
        got = ttnn.to_torch(out).float()[..., :1, :]
    else:
        want = x.float().sum(dim=(-2, -1), keepdim=True)
        got = ttnn.to_torch(out).float()[..., :1, :1]
    assert_close(got, want, pcc=0.999, atol=0.5, rtol=0.02)
