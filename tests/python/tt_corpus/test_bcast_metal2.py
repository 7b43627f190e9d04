"""Corpus: ttnn.bcast and ttnn.typecast as ttnn 0.81.1's Metal 2.0 factories build their ProgramSpecs,
and ttnn.experimental.rotate_half (the legacy consumer of bcast_hw.cpp), kernels unchanged from the
reference tree, checked against torch.

bcast (data_movement/bcast/device): b broadcast over a by H (b one tile row high), W (one tile column
wide) or HW (one tile), add/sub/mul. Every factory puts its three DataflowBuffers (in0 = a, in1 = b,
out; two tiles each) and its kernels on the whole device grid; cores without work get zero args.
- BcastMultiCoreHProgramFactory: a's tile rows (Ht) split over the grid column by column
  (split_work_to_cores, grid_to_cores); reader_bcast_h_interleaved_input_rows_partitioned.cpp hands
  compute an a tile and the b tile of its column, writer_unary_interleaved_input_cols_batched.cpp
  writes them back; bcast_h.cpp (compute_kernel_lib's eltwise chain, a Row broadcast).
- BcastMultiCoreWProgramFactory: a's tile columns (Wt) split the same way; one b tile per tile row
  (reader_bcast_w_interleaved_input_cols_partitioned.cpp); bcast_w.cpp (a Col broadcast); the same
  writer, skipping the columns of other cores.
- BcastMultiCoreHWProgramFactory: a's tiles split one by one; reader_bcast_hw_interleaved_partitioned.cpp
  (BCAST_SCALAR when b has N*C == 1: its one tile read once), eltwise/unary's
  writer_unary_interleaved_start_id_metal2.cpp, and bcast_hw_metal2.cpp (the Metal 2.0 fork 0.81.1's
  HW factory binds; bcast_hw.cpp itself is the legacy kernel rotate_half keeps).
The compute defines are bcast_op_utils::get_defines: BCAST_OP / BCAST_LLKOP / BCAST_DIM for the LLK
API and CHAIN_BCAST_OP / CHAIN_BCAST_DIM for the chain.

rotate_half (experimental/transformer/rotate_half, RotateHalfProgramFactory, one core): the reader
splits each tile row into its halves (c_2 passes the first half through, c_0 feeds the second half
to bcast_hw.cpp, which multiplies it by a -1 scalar tile in c_1 with BCAST_SCALAR), the writer swaps
them: [x1, x2] -> [-x2, x1].

typecast (copy/typecast/device, TypecastProgramFactory, tiles): the tiles split over the grid with
a compute kernel per core group whose per-core tile count is a named compile-time arg; eltwise/unary's
Metal 2.0 reader and writer forks; eltwise_typecast.cpp's named compile-time args in_data_format and
out_data_format (tt::DataFormat values) pick compute_kernel_lib::Typecast. HiFi4, fp32 DST when
either side is 32-bit, the input unpacked to DST in fp32 when it is fp32 (typecast.cpp's
preserve_fp32_precision).

reader_bcast_h_interleaved.cpp, the single-core bcast H reader, is launched by no 0.81.1 factory
(its multi-core H factory reads with the rows-partitioned reader); test_bcast_h_single_core_reader
runs it on one core with its positional args (src0 address, tiles, src1 address, NC*Ht*Wt, NC, Ht,
Wt, nc1) beside bcast_h.cpp and the H factory's writer."""
import pytest
import torch

import ditmk.ttnn as ttnn
from layout_factories import TILE, ceil_div, corerange_to_cores, device_grid, dfb, grid_to_cores, metal2, single_core

pytestmark = pytest.mark.tt_corpus

BCAST = "ttnn/cpp/ttnn/operations/data_movement/bcast/device/kernels/"
UNARY_DATAFLOW = "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/"
ROTATE_HALF = "ttnn/cpp/ttnn/operations/experimental/transformer/rotate_half/device/kernels/dataflow/"
TYPECAST = "ttnn/cpp/ttnn/operations/copy/typecast/device/kernels/compute/eltwise_typecast.cpp"
IN0, IN1, OUT = 0, 1, 16  # the legacy CB indices the factories' DataflowBuffers stand for
TILE_BYTES = {ttnn.bfloat16: 2048, ttnn.float32: 4096, ttnn.uint32: 4096, ttnn.int32: 4096}
DATA_FORMAT = {ttnn.float32: 0, ttnn.bfloat16: 5, ttnn.int32: 8, ttnn.uint32: 24}  # tt::DataFormat

# bcast_op_utils::get_defines, by math op and broadcast dim
MATH = {"add": ("add_tiles_bcast", "ELWADD", "Add", torch.add), "sub": ("sub_tiles_bcast", "ELWSUB", "Sub", torch.sub),
        "mul": ("mul_tiles_bcast", "ELWMUL", "Mul", torch.mul)}  # fmt: skip
DIM = {"H": ("ROW", "Row"), "W": ("COL", "Col"), "HW": ("SCALAR", "Scalar")}


def bcast_defines(dim, op):
    llk_op, llk_type, chain_op, _ = MATH[op]
    llk_dim, chain_dim = DIM[dim]
    return [("BCAST_OP", llk_op), ("BCAST_LLKOP", f"EltwiseBinaryType::{llk_type}"),
            ("BCAST_DIM", f"BroadcastType::{llk_dim}"),
            ("CHAIN_BCAST_OP", f"compute_kernel_lib::BinaryFpuOp::{chain_op}"),
            ("CHAIN_BCAST_DIM", f"compute_kernel_lib::BroadcastDim::{chain_dim}")]  # fmt: skip


def shape4(t):
    s = list(t.padded_shape)
    return [1] * (4 - len(s)) + s


def bcast_dfbs(a, b, out, cores):
    """in0, in1, out: two tiles each in the tensors' formats."""
    return [dfb(IN0, a.dtype, TILE_BYTES[a.dtype], 2, cores), dfb(IN1, b.dtype, TILE_BYTES[b.dtype], 2, cores),
            dfb(OUT, out.dtype, TILE_BYTES[out.dtype], 2, cores)]


def bcast_hw_program(a, b, out, op):
    """BcastMultiCoreHWProgramFactory (interleaved)."""
    N, C, H, W = shape4(a)
    bN, bC, _, _ = shape4(b)
    NC, Ht, Wt = N * C, H // TILE, W // TILE
    HtWt = Ht * Wt
    bnc1 = int(bN * bC == 1)
    everywhere, grid = device_grid(a.device())
    _, _, group_1, group_2, per_core_1, per_core_2 = ttnn.split_work_to_cores(grid, NC * HtWt)
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    done = 0
    for core in grid_to_cores(grid.x * grid.y, grid.x, grid.y):
        n = per_core_1 if group_1.contains(core) else per_core_2 if group_2.contains(core) else None
        if n is None:
            reader_rt[core.x][core.y] = [0, 0, 0, 0, 0]
            compute_rt[core.x][core.y] = [1, 1, 0]
            writer_rt[core.x][core.y] = [0, 0]
            continue
        reader_rt[core.x][core.y] = [n, HtWt, done // HtWt * HtWt, done % HtWt, 0 if bnc1 else done // HtWt]
        compute_rt[core.x][core.y] = [1, 1, n]
        writer_rt[core.x][core.y] = [n, done]
        done += n
    assert done == NC * HtWt
    scalar = [("BCAST_SCALAR", "1")] if bnc1 else []
    kernels = [
        metal2(BCAST + "dataflow/reader_bcast_hw_interleaved_partitioned.cpp", everywhere,
               ttnn.ReaderConfigDescriptor(), defines=scalar,
               rta_names=["num_tiles", "HtWt", "base_start_id_HtWt", "curr_id_from_base", "bcast_id"], rt=reader_rt,
               dfbs={"in0": IN0, "in1": IN1}, tensors=[("src0", a), ("src1", b)]),
        metal2(UNARY_DATAFLOW + "writer_unary_interleaved_start_id_metal2.cpp", everywhere,
               ttnn.WriterConfigDescriptor(), rta_names=["num_pages", "start_id"], rt=writer_rt, dfbs={"out": OUT},
               tensors=[("dst", out)]),
        metal2(BCAST + "compute/bcast_hw_metal2.cpp", everywhere, ttnn.ComputeConfigDescriptor(),
               defines=bcast_defines("HW", op) + scalar, rta_names=["B", "Ht", "Wt"], rt=compute_rt,
               dfbs={"in0": IN0, "in1": IN1, "out": OUT}),
    ]  # fmt: skip
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=bcast_dfbs(a, b, out, everywhere))


def bcast_hw_cols_program(a, b, out, op, dim):
    """BcastMultiCoreHProgramFactory (dim "H": tile rows split) or BcastMultiCoreWProgramFactory
    (dim "W": tile columns split): the same writer and argument names, the readers differ."""
    N, C, H, W = shape4(a)
    bN, bC, _, _ = shape4(b)
    NC, Ht, Wt = N * C, H // TILE, W // TILE
    bnc1 = int(bN * bC == 1)
    everywhere, grid = device_grid(a.device())
    _, _, group_1, group_2, per_core_1, per_core_2 = ttnn.split_work_to_cores(grid, Ht if dim == "H" else Wt)
    reader_names = ["src0_num_tiles", "NCHtWt", "NC", "Ht", "Wt", "nc1", "start_id", "HtWt"]
    if dim == "W":
        reader_names.append("Wt_skip")
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    done = 0  # tiles (H: whole tile rows before this core) or tile columns (W) handed out so far
    for core in grid_to_cores(grid.x * grid.y, grid.x, grid.y):
        n = per_core_1 if group_1.contains(core) else per_core_2 if group_2.contains(core) else None
        if n is None:
            reader_rt[core.x][core.y] = [0] * len(reader_names)
            compute_rt[core.x][core.y] = [0, 0, 0]
            writer_rt[core.x][core.y] = [0] * 6
            continue
        core_ht, core_wt = (n, Wt) if dim == "H" else (Ht, n)
        tiles = NC * core_ht * core_wt
        skip = Wt - core_wt
        reader_args = [tiles, tiles, NC, core_ht, core_wt, bnc1, done, Ht * Wt]
        reader_rt[core.x][core.y] = reader_args + [skip] if dim == "W" else reader_args
        compute_rt[core.x][core.y] = [NC, core_ht, core_wt]
        writer_rt[core.x][core.y] = [core_ht, core_wt, done, skip, NC, Ht * Wt]
        done += core_ht * core_wt if dim == "H" else core_wt
    assert done == (Ht * Wt if dim == "H" else Wt)
    reader = ("reader_bcast_h_interleaved_input_rows_partitioned.cpp" if dim == "H"
              else "reader_bcast_w_interleaved_input_cols_partitioned.cpp")  # fmt: skip
    kernels = [
        metal2(BCAST + "dataflow/" + reader, everywhere, ttnn.ReaderConfigDescriptor(), rta_names=reader_names,
               rt=reader_rt, dfbs={"in0": IN0, "in1": IN1}, tensors=[("src0", a), ("src1", b)]),
        metal2(BCAST + "dataflow/writer_unary_interleaved_input_cols_batched.cpp", everywhere,
               ttnn.WriterConfigDescriptor(), rta_names=["Ht", "Wt", "Wt_read", "Wt_skip", "NC", "HtWt"],
               rt=writer_rt, dfbs={"out": OUT}, tensors=[("dst", out)]),
        metal2(BCAST + f"compute/bcast_{dim.lower()}.cpp", everywhere, ttnn.ComputeConfigDescriptor(),
               defines=bcast_defines(dim, op), rta_names=["B", "Ht", "Wt"], rt=compute_rt,
               dfbs={"in0": IN0, "in1": IN1, "out": OUT}),
    ]  # fmt: skip
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=bcast_dfbs(a, b, out, everywhere))


def tile_tensor(device, x, dtype=ttnn.bfloat16):
    return ttnn.from_torch(x, dtype=dtype, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


def empty(device, shape, dtype=ttnn.bfloat16):
    return ttnn.allocate_tensor_on_device(ttnn.Shape(list(shape)), dtype, ttnn.TILE_LAYOUT, device,
                                          ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip


def values(shape, seed):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).to(torch.bfloat16)


def b_shape(a_shape, dim, per_batch):
    """b as ttnn.bcast takes it: one row (H), one column (W) or one element (HW) of a, padded to a
    tile; its own N, C (per_batch) or 1, 1."""
    n, c, h, w = a_shape
    nc = (n, c) if per_batch else (1, 1)
    return {"H": (*nc, 1, w), "W": (*nc, h, 1), "HW": (*nc, 1, 1)}[dim]


def padded(shape):
    return [*shape[:-2], ceil_div(shape[-2], TILE) * TILE, ceil_div(shape[-1], TILE) * TILE]


def run_bcast(device, dim, op, a_shape, per_batch, seed):
    x = values(a_shape, seed)
    y = values(b_shape(a_shape, dim, per_batch), seed + 1)
    # b padded to whole tiles with zeros, as a tile tensor of its logical shape is on the device
    y_tiles = torch.zeros(padded(y.shape), dtype=torch.bfloat16)
    y_tiles[..., :y.shape[-2], :y.shape[-1]] = y
    a, b = tile_tensor(device, x), tile_tensor(device, y_tiles)
    out = empty(device, a_shape)
    program = bcast_hw_program(a, b, out, op) if dim == "HW" else bcast_hw_cols_program(a, b, out, op, dim)
    got = ttnn.to_torch(ttnn.generic_op([a, b, out], program)).float()
    want = MATH[op][3](x.float(), y.float()).to(torch.bfloat16).float()
    return got, want


@pytest.mark.parametrize("op", sorted(MATH))
@pytest.mark.parametrize("per_batch", [False, True], ids=["b_nc1", "b_nc"])
def test_bcast_h(device, op, per_batch):
    """ttnn.bcast H: a 2 x 1 x 3584 x 64 (112 tile rows over the 110 cores: two cores take 2 rows, the
    rest 1), b one row per batch or one for all."""
    got, want = run_bcast(device, "H", op, (2, 1, 112 * TILE, 2 * TILE), per_batch, 40)
    torch.testing.assert_close(got, want, atol=0.05, rtol=0.02)


@pytest.mark.parametrize("op", sorted(MATH))
@pytest.mark.parametrize("per_batch", [False, True], ids=["b_nc1", "b_nc"])
def test_bcast_w(device, op, per_batch):
    """ttnn.bcast W: a 1 x 2 x 64 x 3584 (112 tile columns over the 110 cores), b one column per batch
    or one for all."""
    got, want = run_bcast(device, "W", op, (1, 2, 2 * TILE, 112 * TILE), per_batch, 41)
    torch.testing.assert_close(got, want, atol=0.05, rtol=0.02)


@pytest.mark.parametrize("op", sorted(MATH))
@pytest.mark.parametrize("per_batch", [False, True], ids=["b_nc1", "b_nc"])
def test_bcast_hw(device, op, per_batch):
    """ttnn.bcast HW: a 2 x 3 x 64 x 640 (120 tiles over the 110 cores: ten take 2), b one element per
    batch (a tile each, read once per HtWt) or one for all (BCAST_SCALAR)."""
    got, want = run_bcast(device, "HW", op, (2, 3, 2 * TILE, 20 * TILE), per_batch, 42)
    torch.testing.assert_close(got, want, atol=0.05, rtol=0.02)


def test_bcast_h_single_core_reader(device):
    """reader_bcast_h_interleaved.cpp (positional args, CB ids 0 and 1) on one core, with b for all
    batches (nc1) wrapped around every tile row; bcast_h.cpp adds and the H factory's writer writes."""
    x, y = values((2, 1, 3 * TILE, 2 * TILE), 43), values((1, 1, 1, 2 * TILE), 44)
    y_tiles = torch.zeros((1, 1, TILE, 2 * TILE), dtype=torch.bfloat16)
    y_tiles[..., :1, :] = y
    a, b = tile_tensor(device, x), tile_tensor(device, y_tiles)
    out = empty(device, x.shape)
    NC, Ht, Wt = 2, 3, 2
    core = single_core()
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    tiles = NC * Ht * Wt
    reader_rt[0][0] = [a.buffer_address(), 0, 0, tiles, b.buffer_address(), 0, 0, Wt, tiles, NC, Ht, Wt, 1]
    compute_rt[0][0] = [NC, Ht, Wt]
    writer_rt[0][0] = [Ht, Wt, 0, 0, NC, Ht * Wt]
    kernels = [
        ttnn.KernelDescriptor(kernel_source=BCAST + "dataflow/reader_bcast_h_interleaved.cpp", core_ranges=core,
                              compile_time_args=ttnn.TensorAccessorArgs(a).get_compile_time_args()
                              + ttnn.TensorAccessorArgs(b).get_compile_time_args(),
                              runtime_args=reader_rt, config=ttnn.ReaderConfigDescriptor()),
        metal2(BCAST + "dataflow/writer_unary_interleaved_input_cols_batched.cpp", core, ttnn.WriterConfigDescriptor(),
               rta_names=["Ht", "Wt", "Wt_read", "Wt_skip", "NC", "HtWt"], rt=writer_rt, dfbs={"out": OUT},
               tensors=[("dst", out)]),
        metal2(BCAST + "compute/bcast_h.cpp", core, ttnn.ComputeConfigDescriptor(), defines=bcast_defines("H", "add"),
               rta_names=["B", "Ht", "Wt"], rt=compute_rt, dfbs={"in0": IN0, "in1": IN1, "out": OUT}),
    ]  # fmt: skip
    program = ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=bcast_dfbs(a, b, out, core))
    got = ttnn.to_torch(ttnn.generic_op([a, b, out], program)).float()
    torch.testing.assert_close(got, (x.float() + y.float()).to(torch.bfloat16).float(), atol=0.05, rtol=0.02)


# ---- rotate_half: the legacy bcast_hw.cpp ----

def rotate_half_program(src, dst):
    """RotateHalfProgramFactory: one core; CBs c_0 (the half multiplied, 2 tiles), c_1 (the scalar
    tile), c_2 (the half passed through, 2 tiles), c_16 (2 tiles); the scalar -1 as bf16 bits."""
    core = single_core()
    num_tiles = src.padded_shape[0] * src.padded_shape[1] * src.padded_shape[2] * src.padded_shape[3] // (TILE * TILE)
    num_rows = num_tiles // (src.padded_shape[-1] // TILE)
    half = src.padded_shape[-1] // TILE // 2
    minus_one = int(torch.tensor([-1.0], dtype=torch.bfloat16).view(torch.int16).item()) & 0xFFFF
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    reader_rt[0][0] = [src.buffer_address(), num_rows, half, 0]
    writer_rt[0][0] = [dst.buffer_address(), num_rows, half, 0]
    compute_rt[0][0] = [1, 1, num_tiles // 2]
    # the factory's defines: mul by a scalar tile held for the whole run; the chain's op and dim as
    # bcast_op_utils gives them for HW MUL
    defines = [("BCAST_OP", "mul_tiles_bcast"), ("BCAST_LLKOP", "EltwiseBinaryType::ELWMUL"),
               ("BCAST_DIM", "BroadcastType::SCALAR"), ("BCAST_SCALAR", "1"),
               ("CHAIN_BCAST_OP", "compute_kernel_lib::BinaryFpuOp::Mul"),
               ("CHAIN_BCAST_DIM", "compute_kernel_lib::BroadcastDim::Scalar")]  # fmt: skip
    reader_ct = [2, 0, 1, minus_one] + ttnn.TensorAccessorArgs(src).get_compile_time_args()
    kernels = [
        ttnn.KernelDescriptor(kernel_source=ROTATE_HALF + "reader_rotate_half_interleaved_start_id.cpp",
                              core_ranges=core, runtime_args=reader_rt, config=ttnn.ReaderConfigDescriptor(),
                              compile_time_args=reader_ct),
        ttnn.KernelDescriptor(kernel_source=ROTATE_HALF + "writer_rotate_half_interleaved_start_id.cpp",
                              core_ranges=core, runtime_args=writer_rt, config=ttnn.WriterConfigDescriptor(),
                              compile_time_args=[2, 16] + ttnn.TensorAccessorArgs(dst).get_compile_time_args()),
        ttnn.KernelDescriptor(kernel_source=BCAST + "compute/bcast_hw.cpp", core_ranges=core, defines=defines,
                              runtime_args=compute_rt, config=ttnn.ComputeConfigDescriptor()),
    ]  # fmt: skip
    tile = TILE_BYTES[src.dtype]
    cbs = [dfb(0, src.dtype, tile, 2, core), dfb(1, src.dtype, 2048, 1, core), dfb(2, src.dtype, tile, 2, core),
           dfb(16, src.dtype, tile, 2, core)]  # fmt: skip
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


def test_rotate_half(device):
    """ttnn.experimental.rotate_half of a 1 x 2 x 64 x 128 bf16 tensor (4 tile rows of 4 tiles)."""
    x = values((1, 2, 2 * TILE, 4 * TILE), 45)
    src, dst = tile_tensor(device, x), empty(device, x.shape)
    got = ttnn.to_torch(ttnn.generic_op([src, dst], rotate_half_program(src, dst))).float()
    x1, x2 = x.float().chunk(2, dim=-1)
    assert torch.equal(got, torch.cat([-x2, x1], dim=-1))


# ---- typecast ----

def typecast_program(src, dst):
    """TypecastProgramFactory for tile tensors."""
    in_dtype, out_dtype = src.dtype, dst.dtype
    num_tiles = src.padded_shape[-2] * src.padded_shape[-1] // (TILE * TILE)
    for d in src.padded_shape[:-2]:
        num_tiles *= d
    _, all_cores, group_1, group_2, per_core_1, per_core_2 = ttnn.split_work_to_cores(
        src.device().compute_with_storage_grid_size(), num_tiles)
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    done = 0
    for core in corerange_to_cores(all_cores):
        n = per_core_1 if group_1.contains(core) else per_core_2
        reader_rt[core.x][core.y] = [n, done]
        writer_rt[core.x][core.y] = [n, done]
        done += n
    assert done == num_tiles
    preserve_fp32 = in_dtype == ttnn.float32
    fp32_dest = preserve_fp32 or out_dtype in (ttnn.float32, ttnn.int32, ttnn.uint32) or in_dtype in (ttnn.int32,
                                                                                                       ttnn.uint32)
    unpack = [ttnn.UnpackToDestMode.Default] * 32
    if preserve_fp32:
        unpack[IN0] = ttnn.UnpackToDestMode.UnpackToDestFp32
    config = ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=fp32_dest,
                                          unpack_to_dest_mode=unpack, math_approx_mode=False)  # fmt: skip
    kernels = [
        metal2(UNARY_DATAFLOW + "reader_unary_interleaved_start_id_metal2.cpp", all_cores,
               ttnn.ReaderConfigDescriptor(), rta_names=["num_pages", "start_id"], rt=reader_rt, dfbs={"in": IN0},
               tensors=[("src", src)]),
        metal2(UNARY_DATAFLOW + "writer_unary_interleaved_start_id_metal2.cpp", all_cores,
               ttnn.WriterConfigDescriptor(), rta_names=["num_pages", "start_id"], rt=writer_rt, dfbs={"out": 2},
               tensors=[("dst", dst)]),
    ]  # fmt: skip
    for group, per_core in ((group_1, per_core_1), (group_2, per_core_2)):
        if not group.empty():
            kernels.append(metal2(TYPECAST, group, config, dfbs={"in": IN0, "out": 2},
                                  cta=[("per_core_block_cnt", per_core), ("per_core_block_dim", 1),
                                       ("in_data_format", DATA_FORMAT[in_dtype]),
                                       ("out_data_format", DATA_FORMAT[out_dtype])]))  # fmt: skip
    cbs = [dfb(IN0, in_dtype, TILE_BYTES[in_dtype], 2, all_cores),
           dfb(2, out_dtype, TILE_BYTES[out_dtype], 2, all_cores)]
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


def run_typecast(device, x, in_dtype, out_dtype):
    src = tile_tensor(device, x, in_dtype)
    dst = empty(device, x.shape, out_dtype)
    return ttnn.to_torch(ttnn.generic_op([src, dst], typecast_program(src, dst)))


# 1 x 3 x 96 x 1248: 351 tiles over the 110 cores (21 take 4, the rest 3)
TYPECAST_SHAPE = (1, 3, 3 * TILE, 39 * TILE)


def test_typecast_bf16_to_fp32(device):
    x = values(TYPECAST_SHAPE, 46)
    got = run_typecast(device, x, ttnn.bfloat16, ttnn.float32)
    assert got.dtype == torch.float32
    assert torch.equal(got, x.float())


def test_typecast_fp32_to_bf16(device):
    x = torch.randn(*TYPECAST_SHAPE, generator=torch.Generator().manual_seed(47))
    got = run_typecast(device, x, ttnn.float32, ttnn.bfloat16)
    assert torch.equal(got.float(), x.to(torch.bfloat16).float())


def test_typecast_bf16_to_uint32(device):
    """Integers in DST: the SFPU truncates toward zero and clamps negatives to 0; the packer writes the words."""
    x = torch.arange(TYPECAST_SHAPE[0] * TYPECAST_SHAPE[1] * TYPECAST_SHAPE[2] * TYPECAST_SHAPE[3])
    x = ((x % 400) - 100).reshape(TYPECAST_SHAPE).to(torch.bfloat16) * 0.75
    got = run_typecast(device, x, ttnn.bfloat16, ttnn.uint32)
    want = x.float().clamp(min=0).trunc().to(torch.int64)
    assert torch.equal(got.to(torch.int64), want)


def test_typecast_int32_to_bf16(device):
    """copy_tile moves Int32 words into DST unchanged; the cast rounds each once to bf16 (nearest even)."""
    x = torch.randint(-70000, 70000, TYPECAST_SHAPE, generator=torch.Generator().manual_seed(48), dtype=torch.int32)
    got = run_typecast(device, x, ttnn.int32, ttnn.bfloat16)
    assert torch.equal(got.float(), x.to(torch.float64).to(torch.bfloat16).float())


def test_typecast_fp32_to_int32(device):
    x = torch.randn(*TYPECAST_SHAPE, generator=torch.Generator().manual_seed(49)) * 1000
    got = run_typecast(device, x, ttnn.float32, ttnn.int32)
    assert torch.equal(got.to(torch.int64), x.trunc().to(torch.int64))
