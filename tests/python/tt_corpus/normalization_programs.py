"""0.81.1's softmax and layernorm / rmsnorm programs as their ProgramSpec factories build them, for
ditmk.ttnn's generic_op with ditmk.ttnn.experimental's Metal 2.0 bindings.

- softmax: SoftmaxProgramFactoryAttentionOptimized (normalization/softmax/device/
  softmax_program_factory_attention_optimized.cpp), interleaved DRAM, the small kernel;
- layernorm, rmsnorm: LayerNormMultiCoreProgramFactory (normalization/layernorm/device/
  layernorm_op_multi_core.cpp), interleaved DRAM, TILE gamma / beta, no residual, not Welford.

Each factory declares its dataflow buffers by name; the kernels only ever see those names
(dfb::in0), so a buffer's CB index here is its place in the factory's declaration order. The
capacities are the factory's: the kernels derive their fifo-wrap padding from them, so they must
match, not just suffice."""
import torch

import ditmk.ttnn as ttnn
from ditmk.ttnn import experimental

TILE = 32
TILE_HW = TILE * TILE
OPS = "ttnn/cpp/ttnn/operations/normalization"
SOFTMAX = f"{OPS}/softmax/device/kernels/attention"
LAYERNORM = f"{OPS}/layernorm/device/kernels"


def bits(value):
    """A float's fp32 bit pattern (std::bit_cast<uint32_t>(float), as the factories pass scalars)."""
    return int(torch.tensor([value], dtype=torch.float32).view(torch.int32).item()) & 0xFFFFFFFF


def round_up(value, multiple):
    return -(-value // multiple) * multiple


def tile_bytes(dtype):
    return TILE_HW * (4 if dtype == ttnn.float32 else 2)


class DataflowBuffers:
    """A factory's dataflow buffers in declaration order: name -> (CB index, entries, format)."""

    def __init__(self, cores):
        self.cores = cores
        self.ids, self.cbs = {}, []

    def declare(self, name, entries, dtype):
        index = len(self.ids)
        self.ids[name] = index
        size = tile_bytes(dtype)
        self.cbs.append(ttnn.CBDescriptor(total_size=entries * size, core_ranges=self.cores,
                                          format_descriptors=[ttnn.CBFormatDescriptor(index, dtype, size)]))

    def alias(self, name, other):
        """`name` opens the same buffer as `other` (no CB of its own)."""
        self.ids[name] = self.ids[other]

    def of(self, *names):
        """The dfb:: bindings of a kernel that names `names`."""
        return {name: self.ids[name] for name in names}


def row_split(device, rows):
    """split_work_to_cores(compute grid, rows, row_wise=true): [(core, first row, rows)] with core i
    at (i % grid.x, i / grid.x), and the CoreRangeSet of every used core."""
    grid = device.compute_with_storage_grid_size()
    num_cores, all_cores, group_1, _, per_1, per_2 = ttnn.split_work_to_cores(grid, rows, True)
    work, first = [], 0
    for i in range(num_cores):
        core = ttnn.CoreCoord(i % grid.x, i // grid.x)
        count = per_1 if group_1.contains(core) else per_2
        work.append((core, first, count))
        first += count
    assert first == rows
    return all_cores, work


def per_core(work, args_of):
    """Runtime args, per core: args_of(first row, rows)."""
    args = ttnn.RuntimeArgs()
    for core, first, count in work:
        args[core.x][core.y] = args_of(first, count)
    return args


def compute_config(fp32_dest_acc_en, math_approx_mode):
    """to_compute_hardware_config of the op's DeviceComputeKernelConfig (HiFi4 in both ops)."""
    return ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=fp32_dest_acc_en,
                                        math_approx_mode=math_approx_mode)


# --- softmax ------------------------------------------------------------------------------------

def find_max_divisor(value, start):
    """The factory's find_max_divisor: the largest divisor of `value` from `start` down, skipping 5
    and 7 (1 at worst)."""
    for d in range(start, 1, -1):
        if d not in (5, 7) and value % d == 0:
            return d
    return 1


def softmax_block_size(Wt, fp32_dest_acc_en):
    """8 tiles (4 with fp32 DEST); when that does not divide Wt, a divisor that takes as many blocks."""
    block = 4 if fp32_dest_acc_en else 8
    if Wt % block:
        d = find_max_divisor(Wt, block)
        if -(-Wt // block) == Wt // d:
            block = d
    return block


def softmax_program(device, x_t, out_t, *, logical_w=None, mask_t=None, scale=None, causal=False, numeric_stable=True,
                    math_approx_mode=True, dataflow_only=False):
    """The attention-optimized factory's program for softmax over the last dim of `x_t` (N, C, H, W),
    with ScaleMaskSoftmax's `scale` and a non-causal `mask_t` (N, 1, 32, W: row 0 of each tile is
    the mask) or, with `causal`, a causal mask (N, 1, H, W: whole tiles added, the same for every
    channel; the reader wraps its rows every Wt tile rows, so H = W). `logical_w` < W is the
    tensor's logical width: the kernels mask the padding out with -inf (MASK_PADDED_DATA). bf16 in
    and out, with fp32_dest_acc_en off, the op's default for bf16.
    `dataflow_only` leaves the compute kernel out and binds the writer's out0 to the reader's in0,
    so the writer writes back what the reader read (a check of the dataflow kernels' launch alone;
    the rows' fifo padding then has to agree, so Wt must be a multiple of the block)."""
    if scale is not None and mask_t is None:
        raise ValueError("softmax: scale must not be set when mask is not present")
    if causal and mask_t is None:
        raise ValueError("softmax: a causal mask needs mask_t")
    N, C, H, W = x_t.padded_shape
    w_unpadded = W if logical_w is None else logical_w
    Wt, Ht, NC = W // TILE, C * H // TILE, N
    mask_padded_data = W > w_unpadded
    has_mask = mask_t is not None
    mask_Ht = mask_t.padded_shape[2] // TILE if has_mask else Ht
    fp32 = False  # init_device_compute_kernel_config's fp32_dest_acc_en: on only for a Float32 input
    block = softmax_block_size(Wt, fp32)
    ns_in0 = numeric_stable and not has_mask and not mask_padded_data
    ns_x = numeric_stable and (has_mask or mask_padded_data)
    in0_t = round_up(Wt, block) if ns_in0 else 2 * block
    row_t = round_up(Wt, block)  # exps, fused_attn, x
    im = ttnn.float32 if fp32 else ttnn.bfloat16
    cores, work = row_split(device, NC * Ht)

    dfbs = DataflowBuffers(cores)
    dfbs.declare("in0", in0_t, x_t.dtype)
    if dataflow_only:
        if Wt % block:
            raise ValueError(f"softmax dataflow_only: Wt {Wt} is not a multiple of the block {block}, so the "
                             "reader's and the writer's row padding differ")
        dfbs.alias("out0", "in0")
    else:
        dfbs.declare("out0", 2 * block, out_t.dtype)
    dfbs.declare("recip_sum_exps", 1, im)
    dfbs.declare("max_scaler", 1, ttnn.bfloat16)
    dfbs.declare("sum_scaler", 1, im)
    dfbs.declare("exps", row_t, im)
    if has_mask:
        dfbs.declare("scale_mask", row_t + block, im)
        dfbs.declare("fused_scale", 1, ttnn.bfloat16)
        dfbs.declare("fused_attn", row_t, mask_t.dtype)
    dfbs.declare("mask_padded", 1, mask_t.dtype if has_mask else ttnn.bfloat16)
    if numeric_stable:
        dfbs.declare("max", 1, im)
    if ns_x:
        dfbs.declare("x", row_t, im)

    base = (([("FUSED_SCALE_MASK", "1")] if has_mask else []) + ([("CAUSAL_MASK", "1")] if causal else [])
            + ([("NUMERIC_STABLE", "1")] if numeric_stable else []))
    compute_defines = base + [("EXP_APPROX", "1" if math_approx_mode else "0"),
                              ("ENABLE_FP32_DEST_ACC", "1" if fp32 else "0")]
    if mask_padded_data:
        compute_defines.append(("MASK_PADDED_DATA", "1"))

    reader_names = ["blk", "num_rows", "tile_offset", "Wt"]
    if has_mask:
        reader_names += ["pre_scale", "Ht", "start_ht", "start_mask_id"]
    if causal:
        reader_names += ["mask_start_ht", "mask_offset"]

    def reader_args(first, rows):
        args = [block, rows, first * Wt, Wt]
        if has_mask:
            ht, mask_ht, mask_offset = first % Ht, first % Ht % mask_Ht, first // Ht * mask_Ht * Wt
            mask_id = mask_ht * Wt + mask_offset if causal else first // Ht * Wt
            args += [bits(1.0 if scale is None else scale), Ht, ht, mask_id]
            if causal:
                args += [mask_ht, mask_offset]
        return args

    reader_ctas = [("in0_t", in0_t)]
    if causal:
        mask_shape = mask_t.padded_shape
        reader_ctas.append(("num_tiles_causal_mask", mask_shape[-1] * mask_shape[-2] // TILE_HW))

    reader = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=f"{SOFTMAX}/dataflow/reader_unary_interleaved_sm.cpp",
                              core_ranges=cores, named_compile_time_args=reader_ctas, defines=base,
                              runtime_args=per_core(work, reader_args), config=ttnn.ReaderConfigDescriptor()),
        experimental.Metal2Bindings(
            named_runtime_args=reader_names,
            dataflow_buffers=dfbs.of("in0", "max_scaler", "sum_scaler",
                                     *(["fused_attn", "fused_scale"] if has_mask else [])),
            tensors=[("src", x_t)] + ([("mask", mask_t)] if has_mask else [])))
    writer = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=f"{SOFTMAX}/dataflow/writer_unary_interleaved_start_id_blocked_sm.cpp",
                              core_ranges=cores,
                              named_compile_time_args=[("num_datum_padded", W - w_unpadded), ("tile_hw", TILE_HW)],
                              runtime_args=per_core(work, lambda first, rows: [rows * Wt, first * Wt, block,
                                                                               int(mask_padded_data), Wt]),
                              config=ttnn.WriterConfigDescriptor()),
        experimental.Metal2Bindings(named_runtime_args=["num_tiles", "tile_offset", "blk", "mask_padded_data", "Wt"],
                                    dataflow_buffers=dfbs.of("out0", "mask_padded"), tensors=[("dst", out_t)]))
    compute_buffers = ["in0", "max_scaler", "sum_scaler", "mask_padded", "out0", "exps", "recip_sum_exps"]
    compute_buffers += (["fused_scale", "fused_attn", "scale_mask"] if has_mask else [])
    compute_buffers += (["max"] if numeric_stable else []) + (["x"] if ns_x else [])
    compute = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=f"{SOFTMAX}/compute/softmax.cpp", core_ranges=cores,
                              named_compile_time_args=[("in0_t", in0_t)], defines=compute_defines,
                              runtime_args=per_core(work, lambda first, rows: [rows, Ht, Wt, block, first % Ht]),
                              config=compute_config(fp32, math_approx_mode)),
        experimental.Metal2Bindings(named_runtime_args=["num_rows", "Ht", "Wt", "blk", "start_ht"],
                                    dataflow_buffers=dfbs.of(*compute_buffers)))
    kernels = [reader, writer] + ([] if dataflow_only else [compute])
    program = ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=dfbs.cbs)
    io = [x_t] + ([mask_t] if has_mask else []) + [out_t]
    return ttnn.generic_op(io, program)


# --- layernorm / rmsnorm -------------------------------------------------------------------------

def layernorm_program(device, x_t, out_t, *, residual_t=None, gamma_t=None, beta_t=None, eps=1e-5, rms=False,
                      logical_w=None,
                      fp32_dest_acc_en=False, math_approx_mode=True):
    """The multi-core interleaved factory's program for layer_norm (rms_norm with `rms`) over the last
    dim of `x_t` (N, C, H, W), of x + `residual_t` when given (FUSE_PRE_ADD); gamma / beta are TILE tensors whose first W/32 tiles hold the row
    (row 0 of each tile is what the kernel broadcasts). `logical_w` < W is the tensor's logical
    width (the CTA W): the reader's second scaler tile keeps the padded columns out of both sums."""
    N, C, H, Wp = x_t.padded_shape
    W = Wp if logical_w is None else logical_w
    Wt, rows = Wp // TILE, N * C * H // TILE
    block = 4 if fp32_dest_acc_en else 8
    Wb = round_up(Wt, block)
    im = ttnn.float32 if fp32_dest_acc_en else ttnn.bfloat16
    has_gamma, has_beta = gamma_t is not None, beta_t is not None
    pre_add = residual_t is not None
    cores, work = row_split(device, rows)

    dfbs = DataflowBuffers(cores)
    dfbs.declare("in", 2 * block if pre_add else Wb, x_t.dtype)  # with a residual, in feeds x block by block
    dfbs.declare("out", 2 * block, out_t.dtype)
    if not rms:
        dfbs.declare("ex", 2, im)
    dfbs.declare("scaler", 2, ttnn.bfloat16)
    dfbs.declare("eps", 2, ttnn.bfloat16)
    dfbs.declare("ex2", 2, im)
    if not rms or pre_add:
        dfbs.declare("xmm", Wb, im)
    dfbs.declare("xmm2", Wb, im)
    dfbs.declare("ex2pe", 8, im)
    if has_gamma or has_beta:
        dfbs.declare("fusion", 2 * block, im)
    if has_gamma:
        dfbs.declare("gamma", Wb, gamma_t.dtype)
    if has_beta:
        dfbs.declare("beta", Wb, beta_t.dtype)
    if pre_add:
        if not rms:
            dfbs.declare("x", Wb, im)  # x = a + b (rmsnorm writes it into xmm)
        dfbs.declare("inb", 2 * block, residual_t.dtype)

    defines = (([("FUSE_PRE_ADD", "1")] if pre_add else []) + ([("FUSE_GAMMA", "1")] if has_gamma else []) + ([("FUSE_BETA", "1")] if has_beta else [])
               + ([("RMSNORM", "1")] if rms else []))
    affine = (["gamma"] if has_gamma else []) + (["beta"] if has_beta else [])
    reader = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=f"{LAYERNORM}/dataflow/reader_unary_interleaved_ln.cpp", core_ranges=cores,
                              named_compile_time_args=[("block_size", block), ("W", W)], defines=defines,
                              runtime_args=per_core(work, lambda first, n: [n, Wt, first, bits(eps)]),
                              config=ttnn.ReaderConfigDescriptor()),
        experimental.Metal2Bindings(named_runtime_args=["NCHt", "Wt", "reader_start", "eps"],
                                    dataflow_buffers=dfbs.of("in", "eps", "scaler", *affine,
                                                             *(["inb"] if pre_add else [])),
                                    tensors=[("src", x_t)] + ([("src_b", residual_t)] if pre_add else [])
                                    + ([("gamma", gamma_t)] if has_gamma else [])
                                    + ([("beta", beta_t)] if has_beta else [])))
    writer = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=f"{LAYERNORM}/dataflow/writer_unary_interleaved_start_id_blocked.cpp",
                              core_ranges=cores, named_compile_time_args=[("block_size", block)],
                              runtime_args=per_core(work, lambda first, n: [Wt, n, first * Wt]),
                              config=ttnn.WriterConfigDescriptor()),
        experimental.Metal2Bindings(named_runtime_args=["Wt", "num_tile_rows", "writer_start"],
                                    dataflow_buffers=dfbs.of("out"), tensors=[("dst", out_t)]))
    compute_buffers = ["in", "eps", "scaler", *affine, "out", "ex2", "xmm2", "ex2pe"]
    compute_buffers += ([] if rms else ["ex"]) + (["xmm"] if not rms or pre_add else []) + (["fusion"] if affine else [])
    compute_buffers += (["inb"] + ([] if rms else ["x"])) if pre_add else []
    compute = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=f"{LAYERNORM}/compute/layernorm.cpp", core_ranges=cores,
                              named_compile_time_args=[("Wt", Wt), ("block_size", block), ("do_gamma", int(has_gamma)),
                                                       ("do_beta", int(has_beta)),
                                                       ("fp32_dest_acc_en", int(fp32_dest_acc_en)),
                                                       ("float32_reduction", int(fp32_dest_acc_en)), ("W", W),
                                                       ("tile_width", TILE)],
                              defines=defines, runtime_args=per_core(work, lambda first, n: [n]),
                              config=compute_config(fp32_dest_acc_en, math_approx_mode)),
        experimental.Metal2Bindings(named_runtime_args=["NCHt"], dataflow_buffers=dfbs.of(*compute_buffers)))
    program = ttnn.ProgramDescriptor(kernels=[reader, writer, compute], semaphores=[], cbs=dfbs.cbs)
    io = [x_t] + ([residual_t] if pre_add else []) + ([gamma_t] if has_gamma else []) + ([beta_t] if has_beta else []) + [out_t]
    return ttnn.generic_op(io, program)
