"""Corpus: ttnn 0.81.1's normalisation kernels (softmax, layernorm, rmsnorm, moreh layer norm), each
program launched as its factory launches it and checked against torch with bf16 tolerances
(docs/tt-corpus.md, "Normalization").

Softmax and layernorm / rmsnorm are Metal 2.0 programs (0.81.1's ProgramSpec factories), launched
through ditmk.ttnn.experimental by normalization_programs.py; moreh's layer norm is a ProgramDescriptor
program (positional args, CB indices)."""

import pytest
import torch

import ditmk.ttnn as ttnn
from corpus import assert_close
from normalization_programs import layernorm_program, softmax_block_size, softmax_program

pytestmark = pytest.mark.tt_corpus

OPS = "ttnn/cpp/ttnn/operations"
MOREH_LN = f"{OPS}/moreh/moreh_layer_norm/device/kernels"
TILE = 2 * 1024  # a bf16 tile's bytes

# What the entries that do not run lack (docs/tt-corpus.md, "Normalization").
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


def bf16(values):
    return values.to(torch.bfloat16)


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


# --- softmax: SoftmaxProgramFactoryAttentionOptimized, interleaved, small kernel ---------------------

@pytest.mark.parametrize("Wt, fp32, block", [(1, False, 1), (2, False, 2), (3, False, 3), (4, False, 4), (5, False, 8),
                                             (6, False, 6), (7, False, 8), (10, False, 8), (12, False, 6),
                                             (16, False, 8), (20, False, 8), (24, False, 8), (2, True, 2),
                                             (5, True, 4), (6, True, 3), (8, True, 4)])
def test_softmax_block_size(Wt, fp32, block):
    """The factory's block: 8 tiles (4 with fp32 DEST) unless a divisor of Wt takes as many blocks
    (find_max_divisor skips 5 and 7)."""
    assert softmax_block_size(Wt, fp32_dest_acc_en=fp32) == block


def softmax_golden(x, scale=None, mask=None):
    x = x.float()
    if scale is not None:
        x = x * torch.tensor(scale).to(torch.bfloat16).float()  # the reader keeps the scale's top 16 bits
    if mask is not None:
        x = x + mask.float()
    return torch.softmax(x, dim=-1)


def test_softmax_dataflow(device):
    """The factory's reader and writer as it launches them (args, tensor bindings, core split), with
    the compute kernel left out and the writer's out0 bound to the reader's in0: the writer must
    write back each row the reader read."""
    torch.manual_seed(0)
    x = bf16(torch.randn(2, 1, 96, 256))  # 6 tile rows of 8 tiles: block 8
    out = softmax_program(device, dram(device, x), empty(device, x.shape), dataflow_only=True)
    assert torch.equal(ttnn.to_torch(out), x)


@pytest.mark.parametrize("shape, numeric_stable", [((1, 1, 64, 128), True), ((1, 2, 96, 160), True),
                                                   ((2, 1, 32, 96), False)],
                         ids=["Wt4", "Wt5-clamped-block", "Wt3-not-stable"])
def test_softmax_attention_interleaved(device, shape, numeric_stable):
    """ttnn.softmax(x, dim=-1): the default config (HiFi4, math_approx_mode, EXP_APPROX=1); Wt=5
    keeps block 8, so the kernels clamp the last block and pad each fifo back to its base."""
    torch.manual_seed(0)
    x = bf16(torch.randn(*shape) * 2)
    out = softmax_program(device, dram(device, x), empty(device, shape), numeric_stable=numeric_stable)
    assert_close(ttnn.to_torch(out).float(), softmax_golden(x), pcc=0.999, atol=1e-2, rtol=2e-2)


def test_softmax_padded_width(device):
    """A logical width of 100 in 4 tiles: the writer builds the -inf mask_padded tile, the compute adds
    it to each row's last tile (MASK_PADDED_DATA), so the 28 padded columns drop out and come back 0."""
    torch.manual_seed(1)
    x = bf16(torch.randn(1, 1, 64, 128) * 2)  # the padded columns hold data the kernels must ignore
    out = softmax_program(device, dram(device, x), empty(device, x.shape), logical_w=100)
    got = ttnn.to_torch(out).float()
    assert_close(got[..., :100], softmax_golden(x[..., :100]), pcc=0.999, atol=1e-2, rtol=2e-2)
    assert torch.all(got[..., 100:] == 0)


def test_scale_mask_softmax(device):
    """ttnn.scale_mask_softmax(x, scale, mask) with a [N, 1, 1, W] mask (TILE, padded to 32 rows: only
    row 0 of each tile counts, the reader re-reads the mask every Ht rows)."""
    torch.manual_seed(2)
    N, C, H, W = 2, 2, 64, 160
    x = bf16(torch.randn(N, C, H, W) * 2)
    mask_row = bf16(torch.where(torch.rand(N, 1, 1, W) < 0.3, -10000.0, 0.0))
    padding = bf16(torch.randn(N, 1, 31, W) * 100)  # rows 1..31 of the mask tiles: never read
    mask = dram(device, torch.cat([mask_row, padding], dim=2))
    out = softmax_program(device, dram(device, x), empty(device, x.shape), mask_t=mask, scale=0.125)
    assert_close(ttnn.to_torch(out).float(), softmax_golden(x, 0.125, mask_row), pcc=0.999, atol=1e-2, rtol=2e-2)


def test_scale_causal_mask_softmax(device):
    """scale_mask_softmax(x, scale, mask, is_causal_mask=True): a [N, 1, S, S] mask added tile by tile,
    the same for each of the C heads (the reader walks the mask's Wt tile rows again for each head
    and moves to the next batch's mask every Ht rows)."""
    torch.manual_seed(6)
    N, C, S = 2, 2, 96
    x = bf16(torch.randn(N, C, S, S) * 2)
    causal = torch.triu(torch.full((S, S), -10000.0), diagonal=1)
    mask = bf16(causal + torch.randn(N, 1, S, S) * 0.5)  # a different mask per batch element
    out = softmax_program(device, dram(device, x), empty(device, x.shape), mask_t=dram(device, mask), scale=0.25,
                      causal=True)
    assert_close(ttnn.to_torch(out).float(), softmax_golden(x, 0.25, mask), pcc=0.999, atol=1e-2, rtol=2e-2)


def test_softmax_scale_without_mask_refused(device):
    x = bf16(torch.randn(1, 1, 32, 32))
    with pytest.raises(ValueError, match="scale must not be set when mask is not present"):
        softmax_program(device, dram(device, x), empty(device, x.shape), scale=0.5)


# --- layernorm / rmsnorm: LayerNormMultiCoreProgramFactory, interleaved, small path --------------------

def affine_row(device, row):
    """gamma / beta as a TILE tensor of one padded tile row: row 0 holds the values, rows 1..31 are
    noise the kernel must not read (it broadcasts row 0)."""
    W = row.numel()
    noise = bf16(torch.randn(1, 1, 31, W) * 100)
    return dram(device, torch.cat([row.reshape(1, 1, 1, W), noise], dim=2))


def layernorm_golden(x, gamma, beta, eps, rms):
    x = x.float()
    eps = torch.tensor(eps).to(torch.bfloat16).float().item()  # the reader keeps eps's top 16 bits
    if rms:
        y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    else:
        y = torch.nn.functional.layer_norm(x, (x.shape[-1],), eps=eps)
    if gamma is not None:
        y = y * gamma.float()
    if beta is not None:
        y = y + beta.float()
    return y


@pytest.mark.parametrize("rms", [False, True], ids=["layernorm", "rmsnorm"])
@pytest.mark.parametrize("affine", ["none", "gamma", "gamma_beta"])
def test_layernorm_interleaved(device, rms, affine):
    """ttnn.layer_norm / ttnn.rms_norm, with the compute config stated (HiFi4, fp32_dest_acc_en off:
    block 8, bf16 intermediates); 2 x 3 tile rows of 5 tiles (Wt=5 pads each block to 8)."""
    torch.manual_seed(3)
    shape, eps = (2, 1, 96, 160), 1e-5
    x = bf16(torch.randn(*shape) * 3 + 1)
    gamma = bf16(torch.randn(shape[-1])) if affine != "none" else None
    beta = bf16(torch.randn(shape[-1])) if affine == "gamma_beta" else None
    out = layernorm_program(device, dram(device, x), empty(device, shape), eps=eps, rms=rms,
                            gamma_t=None if gamma is None else affine_row(device, gamma),
                            beta_t=None if beta is None else affine_row(device, beta))
    assert_close(ttnn.to_torch(out).float(), layernorm_golden(x, gamma, beta, eps, rms), pcc=0.999, atol=5e-2,
                 rtol=3e-2)


@pytest.mark.parametrize("rms", [False, True], ids=["layernorm", "rmsnorm"])
def test_layernorm_residual(device, rms):
    """layer_norm / rms_norm(x, residual_input_tensor=r): the reader streams x and r block by block
    (FUSE_PRE_ADD, in and inb 2 x block) and the compute normalizes x + r."""
    torch.manual_seed(7)
    shape = (1, 2, 64, 160)
    x, r = bf16(torch.randn(*shape) * 2), bf16(torch.randn(*shape))
    gamma, beta = bf16(torch.randn(shape[-1])), bf16(torch.randn(shape[-1]))
    out = layernorm_program(device, dram(device, x), empty(device, shape), residual_t=dram(device, r),
                            gamma_t=affine_row(device, gamma), beta_t=affine_row(device, beta), rms=rms)
    golden = layernorm_golden(bf16(x.float() + r.float()), gamma, beta, 1e-5, rms)
    assert_close(ttnn.to_torch(out).float(), golden, pcc=0.999, atol=5e-2, rtol=3e-2)


@pytest.mark.parametrize("rms", [False, True], ids=["layernorm", "rmsnorm"])
def test_layernorm_padded_width(device, rms):
    """A logical width of 80 in 3 tiles: the reader's second scaler tile has only 80 % 32 = 16 columns
    set, so the padding (noise here) drops out of the mean and the variance; the padded output
    columns are not meaningful."""
    torch.manual_seed(4)
    x = bf16(torch.randn(1, 1, 64, 96) * 2)
    gamma, beta = bf16(torch.randn(96)), bf16(torch.randn(96))
    out = layernorm_program(device, dram(device, x), empty(device, x.shape), gamma_t=affine_row(device, gamma),
                            beta_t=affine_row(device, beta), eps=1e-5, rms=rms, logical_w=80)
    golden = layernorm_golden(x[..., :80], gamma[:80], beta[:80], 1e-5, rms)
    assert_close(ttnn.to_torch(out).float()[..., :80], golden, pcc=0.999, atol=5e-2, rtol=3e-2)


def test_layernorm_fp32_dest(device):
    """layer_norm with fp32_dest_acc_en (the newer layernorm_default_compute_config): block 4, Float32
    intermediates, float32_reduction."""
    torch.manual_seed(5)
    x = bf16(torch.randn(1, 1, 64, 192) * 3 - 2)
    gamma, beta = bf16(torch.randn(192)), bf16(torch.randn(192))
    out = layernorm_program(device, dram(device, x), empty(device, x.shape), gamma_t=affine_row(device, gamma),
                            beta_t=affine_row(device, beta), eps=1e-5, fp32_dest_acc_en=True, math_approx_mode=False)
    assert_close(ttnn.to_torch(out).float(), layernorm_golden(x, gamma, beta, 1e-5, False), pcc=0.999, atol=5e-2,
                 rtol=3e-2)
