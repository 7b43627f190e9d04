"""Corpus: ttnn 0.81.1's normalisation kernels (softmax, moreh layer norm), each program launched as
its factory launches it (the factory named beside each launch) and checked against torch with bf16
tolerances. None runs yet: each entry is a strict xfail naming what is missing (docs/tt-corpus.md,
"Normalization")."""

import pytest
import torch

import ditmk.ttnn as ttnn
from corpus import assert_close

pytestmark = pytest.mark.tt_corpus

OPS = "ttnn/cpp/ttnn/operations"
SOFTMAX = f"{OPS}/normalization/softmax/device/kernels/attention"
MOREH_LN = f"{OPS}/moreh/moreh_layer_norm/device/kernels"
TILE = 2 * 1024  # a bf16 tile's bytes

# What the entries lack, read from the kernels' first build errors on ditmk's headers.
METAL2 = ("0.81.1 creates these kernels through its ProgramSpec host API (Metal 2.0): they read "
          "get_arg(args::...), dfb::... and TensorAccessor(tensor::...), which a ProgramDescriptor "
          "(ditmk.ttnn's generic_op, like 0.81.1's) cannot carry; ditmk's descriptor gives args:: and "
          "dfb:: (runtime_arguments_schema, dataflow_buffer_bindings) but ditmk.ttnn has no fields for "
          "them and tensor:: (api/tensor/tensor_binding_token.h) is not modelled")
KERNEL_LIB = ("moreh_layer_norm_small_kernel.cpp does not compile on this host's kernel compiler: GCC 12 "
              "crashes (internal compiler error, segmentation fault) at ttnn/cpp/ttnn/kernel_lib/eltwise/api/"
              "chain.hpp:522, a member of a class-type template parameter in an alias template (moreh_common.hpp:192 "
              "instantiates it), and clang 14 refuses kernel_lib's `#pragma GCC unroll 0` (eltwise/core/chain.inl:"
              "2841); the reader and writer build")


def dram(device, values):
    return ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


def empty(device, shape):
    return ttnn.allocate_tensor_on_device(ttnn.Shape(list(shape)), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                          ttnn.DRAM_MEMORY_CONFIG)


def cb(index, cores, pages):
    fmt = ttnn.CBFormatDescriptor(buffer_index=index, data_format=ttnn.bfloat16, page_size=TILE)
    return ttnn.CBDescriptor(total_size=pages * TILE, core_ranges=cores, format_descriptors=[fmt])


def bits(value):
    return int(torch.tensor([value], dtype=torch.float32).view(torch.int32).item()) & 0xFFFFFFFF


def split(device, units, row_wise, order):
    """split_work_to_cores over the compute grid; [(core, first unit, units)] in the factory's core
    order (`order(i)` is the factory's i-th core)."""
    grid = device.compute_with_storage_grid_size()
    num_cores, all_cores, group_1, group_2, per_1, per_2 = ttnn.split_work_to_cores(grid, units, row_wise)
    work, first = [], 0
    for i in range(num_cores):
        x, y = order(i, grid)
        per = per_1 if group_1.contains(ttnn.CoreCoord(x, y)) else per_2
        work.append(((x, y), first, per))
        first += per
    return all_cores, work


def runtime_args(work, args_of):
    args = ttnn.RuntimeArgs()
    for (x, y), first, count in work:
        args[x][y] = args_of(first, count)
    return args


# --- softmax: SoftmaxProgramFactoryAttentionOptimized (softmax_program_factory_attention_optimized.cpp),
# interleaved, no mask, numeric_stable --------------------------------------------------------------

def run_softmax(device, x):
    """The factory's small-kernel path: block = the largest divisor of Wt up to 8; in0 and exps Wt
    tiles, out0 2 x block, max / recip_sum_exps / both scalers / mask_padded one each (dataflow
    buffer ids in the ProgramSpec's declaration order); tile rows split row-wise, core i at
    (i % grid.x, i / grid.x). Reader args {blk, num_rows, tile_offset, Wt}, CTA in0_t; writer args
    {num_tiles, tile_offset, blk, mask_padded_data, Wt}, CTAs num_datum_padded, tile_hw; compute
    args {num_rows, Ht, Wt, blk, start_ht}, CTA in0_t, defines NUMERIC_STABLE, EXP_APPROX=0,
    ENABLE_FP32_DEST_ACC=0."""
    src, dst = dram(device, x), empty(device, x.shape)
    wt, ht = x.shape[-1] // 32, x.shape[-2] // 32
    blk = max(d for d in range(1, 9) if wt % d == 0)
    cores, work = split(device, x.numel() // (1024 * wt), True, lambda i, g: (i % g.x, i // g.x))
    ids = {"in0": 0, "out0": 1, "recip_sum_exps": 2, "max_scaler": 3, "sum_scaler": 4, "exps": 5,
           "mask_padded": 6, "max": 7}
    pages = {"in0": wt, "out0": 2 * blk, "recip_sum_exps": 1, "max_scaler": 1, "sum_scaler": 1, "exps": wt,
             "mask_padded": 1, "max": 1}
    reader = ttnn.KernelDescriptor(
        kernel_source=f"{SOFTMAX}/dataflow/reader_unary_interleaved_sm.cpp", core_ranges=cores,
        compile_time_args=ttnn.TensorAccessorArgs(src).get_compile_time_args(),
        named_compile_time_args=[("in0_t", wt)], defines=[("NUMERIC_STABLE", "1")],
        runtime_args=runtime_args(work, lambda first, n: [blk, n, first * wt, wt]),
        config=ttnn.ReaderConfigDescriptor())
    writer = ttnn.KernelDescriptor(
        kernel_source=f"{SOFTMAX}/dataflow/writer_unary_interleaved_start_id_blocked_sm.cpp", core_ranges=cores,
        compile_time_args=ttnn.TensorAccessorArgs(dst).get_compile_time_args(),
        named_compile_time_args=[("num_datum_padded", 0), ("tile_hw", 1024)],
        runtime_args=runtime_args(work, lambda first, n: [n * wt, first * wt, blk, 0, wt]),
        config=ttnn.WriterConfigDescriptor())
    compute = ttnn.KernelDescriptor(
        kernel_source=f"{SOFTMAX}/compute/softmax.cpp", core_ranges=cores, named_compile_time_args=[("in0_t", wt)],
        defines=[("NUMERIC_STABLE", "1"), ("EXP_APPROX", "0"), ("ENABLE_FP32_DEST_ACC", "0")],
        runtime_args=runtime_args(work, lambda first, n: [n, ht, wt, blk, first % ht]),
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=False,
                                            math_approx_mode=False))
    program = ttnn.ProgramDescriptor(kernels=[reader, writer, compute], semaphores=[],
                                     cbs=[cb(ids[name], cores, pages[name]) for name in ids])
    return ttnn.to_torch(ttnn.generic_op([src, dst], program))


@pytest.mark.xfail(strict=True, reason=METAL2)
def test_softmax_attention_interleaved(device):
    torch.manual_seed(0)
    x = (torch.randn(1, 1, 64, 128) * 2).to(torch.bfloat16)
    out = run_softmax(device, x)
    assert_close(out.float(), torch.softmax(x.float(), dim=-1), pcc=0.999, atol=1e-2, rtol=2e-2)


# --- moreh layer norm: MorehLayerNormOperation::ProgramFactory (moreh_layer_norm_program_factory.cpp),
# last-dim, small kernel, gamma, beta, mean and rstd ---------------------------------------------

def run_moreh_layer_norm(device, x, gamma, beta, eps):
    """The factory's small algorithm, normalized_dims 1: num_inner = Wt, one row of tiles per unit,
    block = the largest divisor of Wt up to 4 (bf16 DST); CBs c_0 Wt, c_1 .. c_2 one, c_3 / c_4
    2 x block, c_16 2 x block, c_17 / c_18 one, c_24 one, c_25 Wt, c_26 .. c_29 one, c_30 2 x block,
    c_31 two (bf16 intermediates); column-major cores (i / grid.y, i % grid.y). Reader CTAs {block,
    accessors of input, gamma, beta}, args {input, gamma, beta, rows, num_inner, tile_offset, 1/W,
    eps, mask_h, mask_w}; writer CTAs {mean?, rstd?, block, accessors of output, mean, rstd}, args
    {output, mean, rstd, rows, num_inner, tile_offset, mean rows, mean cols, normalized_dims};
    compute CTAs {rows, H, W, num_inner, block, gamma?, beta?, mean?, rstd?, last-dim?, groupnorm?}
    per core group, REDUCE_OP=PoolType::SUM, REDUCE_DIM=ReduceDim::REDUCE_ROW."""
    h, w = x.shape[-2], x.shape[-1]
    wt = w // 32
    block = max(d for d in range(1, 5) if wt % d == 0)
    src, out = dram(device, x), empty(device, x.shape)
    g = dram(device, torch.nn.functional.pad(gamma.reshape(1, 1, 1, w), (0, 0, 0, 31)))
    b = dram(device, torch.nn.functional.pad(beta.reshape(1, 1, 1, w), (0, 0, 0, 31)))
    mean, rstd = empty(device, (1, 1, h, 32)), empty(device, (1, 1, h, 32))
    cores, work = split(device, h // 32, False, lambda i, grid: (i // grid.y, i % grid.y))
    reader = ttnn.KernelDescriptor(
        kernel_source=f"{MOREH_LN}/reader_moreh_layer_norm_small.cpp", core_ranges=cores,
        compile_time_args=[block] + sum((ttnn.TensorAccessorArgs(t).get_compile_time_args() for t in (src, g, b)), []),
        defines=[("GAMMA_HAS_VALUE", "1"), ("BETA_HAS_VALUE", "1")],
        runtime_args=runtime_args(work, lambda first, n: [src.buffer_address(), g.buffer_address(),
                                                          b.buffer_address(), n, wt, first * wt, bits(1.0 / w),
                                                          bits(eps), 32, 32]),
        config=ttnn.ReaderConfigDescriptor())
    writer = ttnn.KernelDescriptor(
        kernel_source=f"{MOREH_LN}/writer_moreh_layer_norm.cpp", core_ranges=cores,
        compile_time_args=[1, 1, block] + sum((ttnn.TensorAccessorArgs(t).get_compile_time_args()
                                               for t in (out, mean, rstd)), []),
        runtime_args=runtime_args(work, lambda first, n: [out.buffer_address(), mean.buffer_address(),
                                                          rstd.buffer_address(), n, wt, first * wt, h, 1, 1]),
        config=ttnn.WriterConfigDescriptor())
    groups = {}
    for core, first, n in work:
        groups.setdefault(n, []).append(core)
    computes = [ttnn.KernelDescriptor(
        kernel_source=f"{MOREH_LN}/moreh_layer_norm_small_kernel.cpp",
        core_ranges=ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(x, y), ttnn.CoreCoord(x, y)) for x, y in group]),
        compile_time_args=[n, h, w, wt, block, 1, 1, 1, 1, 1, 0],
        defines=[("REDUCE_OP", "PoolType::SUM"), ("REDUCE_DIM", "ReduceDim::REDUCE_ROW")],
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=False,
                                            math_approx_mode=False))
        for n, group in groups.items()]
    pages = {0: wt, 1: 1, 2: 1, 3: 2 * block, 4: 2 * block, 16: 2 * block, 17: 1, 18: 1, 24: 1, 25: wt, 26: 1,
             27: 1, 28: 1, 29: 1, 30: 2 * block, 31: 2}
    program = ttnn.ProgramDescriptor(kernels=[reader, writer] + computes, semaphores=[],
                                     cbs=[cb(i, cores, p) for i, p in pages.items()])
    ttnn.generic_op([src, g, b, out, mean, rstd], program)
    return ttnn.to_torch(out), ttnn.to_torch(mean), ttnn.to_torch(rstd)


@pytest.mark.xfail(strict=True, reason=KERNEL_LIB)
def test_moreh_layer_norm_last_dim(device):
    torch.manual_seed(1)
    x = torch.randn(1, 1, 64, 128).to(torch.bfloat16)
    gamma, beta = torch.randn(128).to(torch.bfloat16), torch.randn(128).to(torch.bfloat16)
    eps = 1e-5
    out, mean, rstd = run_moreh_layer_norm(device, x, gamma, beta, eps)
    xf = x.float()
    golden = torch.nn.functional.layer_norm(xf, (128,), gamma.float(), beta.float(), eps)
    assert_close(out.float(), golden, pcc=0.999, atol=5e-2, rtol=3e-2)
    assert_close(mean.float()[..., :1], xf.mean(-1, keepdim=True), pcc=0.999, atol=2e-2, rtol=2e-2)
    assert_close(rstd.float()[..., :1], torch.rsqrt(xf.var(-1, unbiased=False, keepdim=True) + eps),
                 pcc=0.999, atol=2e-2, rtol=2e-2)
