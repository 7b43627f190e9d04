"""Corpus: ttnn 0.81.1's element-wise kernels (unary SFPU ops, binary add/sub/mul, broadcast,
typecast, copy), each launched unchanged from the reference tree as its program factory launches it
(the factory named beside each launch), and checked against torch with bf16 tolerances."""

import pytest
import torch

import ditmk.ttnn as ttnn
from corpus import assert_close

pytestmark = pytest.mark.tt_corpus

OPS = "ttnn/cpp/ttnn/operations"
UNARY_READER = f"{OPS}/eltwise/unary/device/kernels/dataflow/reader_unary_interleaved_start_id.cpp"
UNARY_WRITER = f"{OPS}/eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp"
UNARY_COMPUTE = f"{OPS}/eltwise/unary/device/kernels/compute/eltwise_sfpu.cpp"
BINARY_READER = f"{OPS}/eltwise/binary/device/kernels/dataflow/reader_binary_interleaved_start_id.cpp"
BINARY_COMPUTE = f"{OPS}/eltwise/binary/device/kernels/compute/eltwise_binary_kernel.cpp"
COPY_READER = f"{OPS}/data_movement/copy/device/kernels/reader_unary_start_id.cpp"
COPY_WRITER = f"{OPS}/data_movement/copy/device/kernels/writer_unary_start_id.cpp"

TILE_BYTES = {ttnn.bfloat16: 2 * 1024, ttnn.float32: 4 * 1024}
SHAPE = (1, 1, 64, 160)  # 10 tiles: the split gives each core its own consecutive run


def device_tensor(device, values, dtype=ttnn.bfloat16):
    return ttnn.from_torch(values, dtype=dtype, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


def empty_tensor(device, shape, dtype=ttnn.bfloat16):
    return ttnn.allocate_tensor_on_device(ttnn.Shape(list(shape)), dtype, ttnn.TILE_LAYOUT, device,
                                          ttnn.DRAM_MEMORY_CONFIG)


def tile_split(device, num_tiles):
    """The factories' split: split_work_to_cores over the compute grid, column-major, each core a
    consecutive run of tiles. Returns the cores used and [(core, first tile, tiles)] in order."""
    grid = device.compute_with_storage_grid_size()
    _, all_cores, group_1, group_2, per_core_1, per_core_2 = ttnn.split_work_to_cores(grid, num_tiles)
    work, first = [], 0
    for group, per_core in ((group_1, per_core_1), (group_2, per_core_2)):
        cores = sorted((x, y) for r in group.ranges() for x in range(r.start.x, r.end.x + 1)
                       for y in range(r.start.y, r.end.y + 1))
        for core in cores:
            work.append((core, first, per_core))
            first += per_core
    return all_cores, work


def cb(index, cores, dtype, pages=2):
    fmt = ttnn.CBFormatDescriptor(buffer_index=index, data_format=dtype, page_size=TILE_BYTES[dtype])
    return ttnn.CBDescriptor(total_size=pages * TILE_BYTES[dtype], core_ranges=cores, format_descriptors=[fmt])


def runtime_args(work, args_of):
    args = ttnn.RuntimeArgs()
    for (x, y), first, count in work:
        args[x][y] = args_of(first, count)
    return args


# --- unary: eltwise_sfpu.cpp ------------------------------------------------------------------

# (init, call, include define) as unary_op_utils.cpp writes them for each op
UNARY = {
    "exp": ("exp_tile_init<1u>();", "exp_tile<1u>(0);", "SFPU_OP_EXP_INCLUDE", torch.exp, (-4, 4)),
    "gelu_approx": ("gelu_tile_init<1u>();", "gelu_tile<1u>(0);", "SFPU_OP_GELU_INCLUDE",
                    lambda x: torch.nn.functional.gelu(x, approximate="tanh"), (-4, 4)),
    "gelu": ("gelu_tile_init<0u>();", "gelu_tile<0u>(0);", "SFPU_OP_GELU_INCLUDE", torch.nn.functional.gelu,
             (-4, 4)),
    "recip": ("recip_tile_init();", "recip_tile(0);", "SFPU_OP_RECIP_INCLUDE", torch.reciprocal, (0.25, 4)),
    "sqrt": ("sqrt_tile_init();", "sqrt_tile(0);", "SFPU_OP_SQRT_INCLUDE", torch.sqrt, (0, 16)),
    "rsqrt": ("rsqrt_tile_init();", "rsqrt_tile(0);", "SFPU_OP_RSQRT_INCLUDE", torch.rsqrt, (0.25, 16)),
    "sigmoid": ("sigmoid_tile_init();", "sigmoid_tile(0);", "SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", torch.sigmoid,
                (-6, 6)),
    "tanh": ("tanh_tile_init();", "tanh_tile(0);", "SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", torch.tanh, (-3, 3)),
    "log": ("log_tile_init();", "log_tile(0);", "SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", torch.log, (0.1, 10)),
    "abs": ("abs_tile_init();", "abs_tile(0);", "SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", torch.abs, (-4, 4)),
    "square": ("square_tile_init();", "square_tile(0);", "SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", torch.square,
               (-4, 4)),
    "silu": ("silu_tile_init();", "silu_tile(0);", "SFPU_OP_COMPUTE_KERNEL_API_INCLUDE",
             torch.nn.functional.silu, (-4, 4)),
    "relu": ("relu_tile_init();", "relu_tile(0);", "SFPU_OP_RELU_FAMILY_INCLUDE", torch.relu, (-4, 4)),
    "neg": ("negative_tile_init();", "negative_tile(0);", "SFPU_OP_NEG_INCLUDE", torch.neg, (-4, 4)),
    "sin": ("sin_tile_init();", "sin_tile(0);", "SFPU_OP_TRIG_FAMILY_INCLUDE", torch.sin, (-3, 3)),
}


def run_unary(device, x, init, call, include, out_dtype=ttnn.bfloat16, in_dtype=ttnn.bfloat16):
    """unary_program_factory.cpp (UnaryProgramFactory, interleaved): CB c_0 (input) and c_2 (output),
    two pages each; reader args {src, tiles, first}; writer compile args {c_2, accessor} and args
    {dst, tiles, first}; compute args {tiles, packed scalar 1, packed scalar 2}; HiFi4, no
    approximation, fp32 DST when a side is fp32; the op chain as SFPU_OP_CHAIN_0 with its include
    define and INP_FLOAT (INP_FLOAT32 for an fp32 input)."""
    src = device_tensor(device, x, in_dtype)
    dst = empty_tensor(device, x.shape, out_dtype)
    num_tiles = x.numel() // 1024
    cores, work = tile_split(device, num_tiles)
    defines = [("SFPU_OP_CHAIN_0", "SFPU_OP_CHAIN_0_INIT_0 SFPU_OP_CHAIN_0_FUNC_0 "),
               ("SFPU_OP_CHAIN_0_INIT_0", init), ("SFPU_OP_CHAIN_0_FUNC_0", call), (include, "1"),
               ("INP_FLOAT32" if in_dtype == ttnn.float32 else "INP_FLOAT", "1")]
    reader = ttnn.KernelDescriptor(
        kernel_source=UNARY_READER, core_ranges=cores,
        compile_time_args=ttnn.TensorAccessorArgs(src).get_compile_time_args(),
        runtime_args=runtime_args(work, lambda first, n: [src.buffer_address(), n, first]),
        config=ttnn.ReaderConfigDescriptor())
    writer = ttnn.KernelDescriptor(
        kernel_source=UNARY_WRITER, core_ranges=cores,
        compile_time_args=[2] + ttnn.TensorAccessorArgs(dst).get_compile_time_args(),
        runtime_args=runtime_args(work, lambda first, n: [dst.buffer_address(), n, first]),
        config=ttnn.WriterConfigDescriptor())
    compute = ttnn.KernelDescriptor(
        kernel_source=UNARY_COMPUTE, core_ranges=cores, defines=defines,
        runtime_args=runtime_args(work, lambda first, n: [n, 0, 0]),
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4,
                                            fp32_dest_acc_en=ttnn.float32 in (in_dtype, out_dtype),
                                            math_approx_mode=False))
    program = ttnn.ProgramDescriptor(kernels=[reader, writer, compute], semaphores=[],
                                     cbs=[cb(0, cores, in_dtype), cb(2, cores, out_dtype)])
    return ttnn.to_torch(ttnn.generic_op([src, dst], program))


def spread(lo, hi, shape=SHAPE):
    n = 1
    for d in shape:
        n *= d
    return torch.linspace(lo, hi, n).reshape(shape).to(torch.bfloat16)


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_sfpu(device, op):
    init, call, include, golden, (lo, hi) = UNARY[op]
    x = spread(lo, hi)
    out = run_unary(device, x, init, call, include)
    assert_close(out.float(), golden(x.float()), pcc=0.999, atol=2e-2, rtol=2e-2)


def test_unary_typecast_bf16_to_fp32(device):
    # ttnn.typecast's unary form: the TYPECAST op in the chain, bf16 in (DataFormat 5), fp32 out (0)
    x = spread(-100, 100)
    out = run_unary(device, x, "typecast_tile_init<5u, 0u>();", "typecast_tile<5u, 0u>(0);",
                    "SFPU_OP_TYPECAST_INCLUDE", out_dtype=ttnn.float32)
    assert out.dtype == torch.float32
    assert torch.equal(out, x.float())


def test_unary_typecast_fp32_to_bf16(device):
    x = torch.linspace(-3, 3, 64 * 160).reshape(SHAPE)
    out = run_unary(device, x, "typecast_tile_init<0u, 5u>();", "typecast_tile<0u, 5u>(0);",
                    "SFPU_OP_TYPECAST_INCLUDE", in_dtype=ttnn.float32)
    assert torch.equal(out.float(), x.to(torch.bfloat16).float())


# --- binary: eltwise_binary_kernel.cpp ----------------------------------------------------------

BINARY = {"add": ("add_tiles", "ELWADD", torch.add), "sub": ("sub_tiles", "ELWSUB", torch.sub),
          "mul": ("mul_tiles", "ELWMUL", torch.mul)}


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary(device, op):
    """element_wise_multi_core_program_factory.cpp (BinaryDeviceOperation::ElementWiseMultiCore,
    interleaved): CBs c_0, c_1, c_2 of two pages; reader compile args {block_or_width_sharded 0,
    accessor a, accessor b} and args {a, b, tiles, first, block height 0, block width 0, cores y};
    compute args {blocks, block size 1} with ELTWISE_OP / ELTWISE_OP_TYPE; the unary writer on c_2."""
    call, op_type, golden = BINARY[op]
    a_host = spread(-4, 4)
    b_host = torch.flip(spread(-2, 3), dims=[-1])
    a, b = device_tensor(device, a_host), device_tensor(device, b_host)
    dst = empty_tensor(device, SHAPE)
    cores, work = tile_split(device, a_host.numel() // 1024)
    grid = device.compute_with_storage_grid_size()
    reader = ttnn.KernelDescriptor(
        kernel_source=BINARY_READER, core_ranges=cores,
        compile_time_args=[0] + ttnn.TensorAccessorArgs(a).get_compile_time_args()
        + ttnn.TensorAccessorArgs(b).get_compile_time_args(),
        runtime_args=runtime_args(work, lambda first, n: [a.buffer_address(), b.buffer_address(), n, first, 0, 0,
                                                          grid.y]),
        config=ttnn.ReaderConfigDescriptor())
    writer = ttnn.KernelDescriptor(
        kernel_source=UNARY_WRITER, core_ranges=cores,
        compile_time_args=[2] + ttnn.TensorAccessorArgs(dst).get_compile_time_args(),
        runtime_args=runtime_args(work, lambda first, n: [dst.buffer_address(), n, first]),
        config=ttnn.WriterConfigDescriptor())
    compute = ttnn.KernelDescriptor(
        kernel_source=BINARY_COMPUTE, core_ranges=cores,
        defines=[("ELTWISE_OP", call), ("ELTWISE_OP_TYPE", f"EltwiseBinaryType::{op_type}")],
        runtime_args=runtime_args(work, lambda first, n: [n, 1]),
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4))
    program = ttnn.ProgramDescriptor(kernels=[reader, writer, compute], semaphores=[],
                                     cbs=[cb(0, cores, ttnn.bfloat16), cb(1, cores, ttnn.bfloat16),
                                          cb(2, cores, ttnn.bfloat16)])
    out = ttnn.to_torch(ttnn.generic_op([a, b, dst], program))
    assert_close(out.float(), golden(a_host.float(), b_host.float()), pcc=0.9999, atol=2e-2, rtol=1e-2)


# --- copy: data_movement/copy ------------------------------------------------------------------

def test_copy(device):
    """copy_program_factory.cpp (CopyDeviceOperation, interleaved tiles): one CB c_0 of two pages
    between reader_unary_start_id (accessor; {src, tiles, first}) and writer_unary_start_id
    ({c_0, accessor}; {dst, tiles, first}), no compute kernel."""
    x = spread(-8, 8)
    src, dst = device_tensor(device, x), empty_tensor(device, SHAPE)
    cores, work = tile_split(device, x.numel() // 1024)
    reader = ttnn.KernelDescriptor(
        kernel_source=COPY_READER, core_ranges=cores,
        compile_time_args=ttnn.TensorAccessorArgs(src).get_compile_time_args(),
        runtime_args=runtime_args(work, lambda first, n: [src.buffer_address(), n, first]),
        config=ttnn.ReaderConfigDescriptor())
    writer = ttnn.KernelDescriptor(
        kernel_source=COPY_WRITER, core_ranges=cores,
        compile_time_args=[0] + ttnn.TensorAccessorArgs(dst).get_compile_time_args(),
        runtime_args=runtime_args(work, lambda first, n: [dst.buffer_address(), n, first]),
        config=ttnn.WriterConfigDescriptor())
    program = ttnn.ProgramDescriptor(kernels=[reader, writer], semaphores=[], cbs=[cb(0, cores, ttnn.bfloat16)])
    out = ttnn.to_torch(ttnn.generic_op([src, dst], program))
    assert torch.equal(out, x)


COPY_COMPUTE = "ttnn/cpp/ttnn/kernel/compute/eltwise_copy.cpp"


def test_copy_convert_dtype(device):
    """copy_program_factory.cpp with convert_dtype (a bf16 input copied into an fp32 output): as
    test_copy, plus CB c_16 (two fp32 pages) as the writer's CB ({c_16, accessor}) and the compute
    kernel eltwise_copy.cpp (ttnn/kernel/compute, kernel_lib's copy) per core group with {tiles of a
    core}, ComputeConfig's defaults."""
    x = spread(-8, 8)
    src, dst = device_tensor(device, x), empty_tensor(device, SHAPE, ttnn.float32)
    cores, work = tile_split(device, x.numel() // 1024)
    reader = ttnn.KernelDescriptor(
        kernel_source=COPY_READER, core_ranges=cores,
        compile_time_args=ttnn.TensorAccessorArgs(src).get_compile_time_args(),
        runtime_args=runtime_args(work, lambda first, n: [src.buffer_address(), n, first]),
        config=ttnn.ReaderConfigDescriptor())
    writer = ttnn.KernelDescriptor(
        kernel_source=COPY_WRITER, core_ranges=cores,
        compile_time_args=[16] + ttnn.TensorAccessorArgs(dst).get_compile_time_args(),
        runtime_args=runtime_args(work, lambda first, n: [dst.buffer_address(), n, first]),
        config=ttnn.WriterConfigDescriptor())
    groups = {}
    for core, _, n in work:
        groups.setdefault(n, []).append(core)
    computes = [ttnn.KernelDescriptor(
        kernel_source=COPY_COMPUTE,
        core_ranges=ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(x_, y_), ttnn.CoreCoord(x_, y_))
                                       for x_, y_ in group]),
        compile_time_args=[n], config=ttnn.ComputeConfigDescriptor())
        for n, group in groups.items()]
    program = ttnn.ProgramDescriptor(kernels=[reader, writer] + computes, semaphores=[],
                                     cbs=[cb(0, cores, ttnn.bfloat16), cb(16, cores, ttnn.float32)])
    out = ttnn.to_torch(ttnn.generic_op([src, dst], program))
    assert out.dtype == torch.float32
    assert torch.equal(out, x.float())


# --- binary_ng: what ttnn.add / ttnn.subtract / ttnn.multiply launch -----------------------------

NG = f"{OPS}/eltwise/binary_ng/device"
NG_WRITER = f"{NG}/kernels_ng/dataflow/writer_interleaved_no_bcast.cpp"
NG_KERNELS = {  # broadcast of b: (reader, compute, compute args' (freq, counter) of a core's first tile)
    "none": (f"{NG}/kernels_ng/dataflow/reader_interleaved_no_bcast.cpp",
             f"{NG}/kernels/compute/eltwise_binary_no_bcast.cpp", lambda first, ht, wt: (1, 0)),
    "row": (f"{NG}/kernels_ng/dataflow/reader_interleaved_row_bcast.cpp",
            f"{NG}/kernels_ng/compute/eltwise_binary_row_bcast.cpp", lambda first, ht, wt: (1, 0)),
    "col": (f"{NG}/kernels_ng/dataflow/reader_interleaved_col_bcast.cpp",
            f"{NG}/kernels_ng/compute/eltwise_binary_col_bcast.cpp",
            lambda first, ht, wt: (wt, first % (ht * wt) % wt)),
    "scalar": (f"{NG}/kernels_ng/dataflow/reader_interleaved_scalar_bcast.cpp",
               f"{NG}/kernels_ng/compute/eltwise_binary_scalar_bcast.cpp",
               lambda first, ht, wt: (ht * wt, first % (ht * wt))),
}
B_SHAPE = {"none": SHAPE, "row": (1, 1, 1, SHAPE[3]), "col": (1, 1, SHAPE[2], 1), "scalar": (1, 1, 1, 1)}


def run_binary_ng(device, op, bcast, a_host, b_host):
    """binary_ng_program_factory.cpp (BinaryNgDeviceOperation, interleaved tiles, FPU op): CBs c_0
    (a), c_1 (b), c_2 (out) of two pages, and for a broadcast b the LLK broadcast's c_6; reader
    compile args {accessor a, accessor b, has_sharding 0} and args {a, first, 0, tiles, 0, strides
    of a, D, N, C, Ht, Wt, cND, b, strides of b, 0, a's Wt, b's Wt}; writer {accessor c, 0} and
    {c, first, tiles, 0, D, N, C, Ht, Wt, cND}; compute compile args {tiles per cycle 1} and args
    {tiles, freq, counter, 0}, with BINARY_OP / BINARY_OP_TYPE and empty activation defines."""
    call, op_type, _ = BINARY[op]
    reader_src, compute_src, freq_of = NG_KERNELS[bcast]
    # b as ttnn stores a broadcast operand in tiles: padded to whole tiles (the padding is never read)
    pad_h, pad_w = -b_host.shape[-2] % 32, -b_host.shape[-1] % 32
    a, b = device_tensor(device, a_host), device_tensor(device, torch.nn.functional.pad(b_host, (0, pad_w, 0, pad_h)))
    c = empty_tensor(device, a_host.shape)
    ht, wt = a_host.shape[-2] // 32, a_host.shape[-1] // 32
    b_wt = max(1, b_host.shape[-1] // 32)
    cores, work = tile_split(device, a_host.numel() // 1024)
    is_bcast = "1" if bcast != "none" else "0"
    reader = ttnn.KernelDescriptor(
        kernel_source=reader_src, core_ranges=cores,
        compile_time_args=ttnn.TensorAccessorArgs(a).get_compile_time_args()
        + ttnn.TensorAccessorArgs(b).get_compile_time_args() + [0],
        defines=[("SRC_SHARDED", "0"), ("SRC_SHARDED_B", "0"), ("SRC_BCAST", "0"), ("SRC_BCAST_B", is_bcast),
                 ("BCAST_LLK", is_bcast)],
        runtime_args=runtime_args(work, lambda first, n: [a.buffer_address(), first, 0, n, 0, 0, 0, 0, 0, 1, 1, 1,
                                                          ht, wt, 1, b.buffer_address(), 0, 0, 0, 0, 0, wt, b_wt]),
        config=ttnn.ReaderConfigDescriptor())
    writer = ttnn.KernelDescriptor(
        kernel_source=NG_WRITER, core_ranges=cores,
        compile_time_args=ttnn.TensorAccessorArgs(c).get_compile_time_args() + [0],
        defines=[("DST_SHARDED", "0")],
        runtime_args=runtime_args(work, lambda first, n: [c.buffer_address(), first, n, 0, 1, 1, 1, ht, wt, 1]),
        config=ttnn.WriterConfigDescriptor())
    defines = [("BINARY_OP", call), ("BINARY_OP_TYPE", f"EltwiseBinaryType::{op_type}"),
               ("PROCESS_LHS_ACTIVATIONS(i)", ""), ("PROCESS_RHS_ACTIVATIONS(i)", ""),
               ("PROCESS_POST_ACTIVATIONS(i)", "")]
    if bcast != "none":
        defines += [("BCAST_INPUT", "1"), ("SRC_BCAST", "0"), ("SRC_BCAST_B", "1")]
    compute = ttnn.KernelDescriptor(
        kernel_source=compute_src, core_ranges=cores, compile_time_args=[1], defines=defines,
        runtime_args=runtime_args(work, lambda first, n: [n, *freq_of(first, ht, wt), 0]),
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4))
    cbs = [cb(0, cores, ttnn.bfloat16), cb(1, cores, ttnn.bfloat16), cb(2, cores, ttnn.bfloat16)]
    if bcast != "none":
        cbs.append(cb(6, cores, ttnn.bfloat16))
    program = ttnn.ProgramDescriptor(kernels=[reader, writer, compute], semaphores=[], cbs=cbs)
    return ttnn.to_torch(ttnn.generic_op([a, b, c], program))


@pytest.mark.parametrize("bcast", ["none", "row", "col", "scalar"])
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_ng(device, op, bcast):
    a_host = spread(-4, 4)
    b_host = spread(-2, 3, B_SHAPE[bcast])
    if bcast == "scalar":
        b_host = torch.full(B_SHAPE[bcast], 1.5, dtype=torch.bfloat16)
    out = run_binary_ng(device, op, bcast, a_host, b_host)
    golden = BINARY[op][2](a_host.float(), b_host.float())
    assert_close(out.float(), golden, pcc=0.9999, atol=2e-2, rtol=1e-2)
