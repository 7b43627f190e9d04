"""Corpus: ttnn 0.81.1's generic reduce kernels (row, column and scalar), checked against torch.

0.81.1's reduce factories (reduction/generic/device/reduce_op_multi_core_{w,h}_program_factory.cpp,
reduce_op_single_core_hw_program_factory.cpp) are Metal 2.0 ProgramSpecs, and so are the kernels:
reduce.cpp and reader_unary_reduce_universal_start_id.cpp read their args as get_arg(args::Ht),
their buffers as dfb::in0 / dfb::scaler / dfb::out and their tensor as tensor::src, names that
tt-metal's JIT generates (kernel_args_generated.h) only for MakeProgramFromSpec. A ProgramDescriptor,
what generic_op launches in ttnn 0.81.1 as in ditmk.ttnn, has no way to give them, so each entry
below is the factory's program written as a ProgramDescriptor as closely as it can be (its kernels,
defines, compile-time args as named args, runtime args in the schema's order, one core) and fails
for exactly that reason."""
import pytest
import torch

import ditmk.ttnn as ttnn
from corpus import assert_close

pytestmark = pytest.mark.tt_corpus

TILE = 32
TILE_BYTES_BF16 = 2048
REDUCE = "ttnn/cpp/ttnn/operations/reduction/generic/device/kernels"
METAL2_WRITER = (
    "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id_metal2.cpp"
)
METAL2 = (
    "a Metal 2.0 ProgramSpec kernel: reduce.cpp and reader_unary_reduce_universal_start_id.cpp read "
    "get_arg(args::...), dfb::... and tensor::... from the kernel_args_generated.h that tt-metal's JIT "
    "writes only for ProgramSpec launches (experimental/kernel_args.h); generic_op's ProgramDescriptor "
    "cannot give named runtime args, DFB or tensor bindings"
)

# reduce_op_utils::get_defines: the op and the dimension as the compute API's enums.
DIMS = {
    "row": ("ReduceDim::REDUCE_ROW", lambda x: x.sum(dim=-1, keepdim=True), (None, 1)),
    "column": ("ReduceDim::REDUCE_COL", lambda x: x.sum(dim=-2, keepdim=True), (1, None)),
    "scalar": ("ReduceDim::REDUCE_SCALAR", lambda x: x.sum(dim=(-2, -1), keepdim=True), (1, 1)),
}


def reduce_program(x_t, out_t, dim, Ht, Wt, out_tiles):
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    defines = [("REDUCE_OP", "PoolType::SUM"), ("REDUCE_DIM", DIMS[dim][0])]
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    reader_rt[0][0] = [Ht * Wt, 0, 0x3F800000]  # num_tiles, start_id, scaler_bits (1.0: a sum)
    writer_rt[0][0] = [out_tiles, 0]  # num_pages, start_id
    compute_rt[0][0] = [Ht, Wt, 1]  # Ht, Wt, NC

    def kernel(source, config, named=(), rt=None):
        return ttnn.KernelDescriptor(kernel_source=source, core_ranges=core, named_compile_time_args=list(named),
                                     defines=defines, runtime_args=rt, config=config)  # fmt: skip

    kernels = [
        kernel(f"{REDUCE}/dataflow/reader_unary_reduce_universal_start_id.cpp", ttnn.ReaderConfigDescriptor(),
               [("tiles_per_batch", 1)], reader_rt),
        kernel(f"{REDUCE}/compute/reduce.cpp", ttnn.ComputeConfigDescriptor(),
               [("post_mul_scaler_bits", 0x3F800000), ("enable_fp32_sfpu", 0)], compute_rt),
        kernel(METAL2_WRITER, ttnn.WriterConfigDescriptor(), rt=writer_rt),
    ]  # fmt: skip
    cbs = [
        ttnn.CBDescriptor(
            total_size=2 * TILE_BYTES_BF16,
            core_ranges=core,
            format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=i, data_format=ttnn.bfloat16,
                                                        page_size=TILE_BYTES_BF16)],  # fmt: skip
        )
        for i in (0, 2, 3)
    ]
    return ttnn.generic_op([x_t, out_t], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("dim", [pytest.param(d, marks=pytest.mark.xfail(strict=True, reason=METAL2)) for d in DIMS])
def test_reduce_sum(device, dim):
    H, W = 64, 96
    g = torch.Generator().manual_seed(11)
    x = torch.randn(1, 1, H, W, generator=g).to(torch.bfloat16)
    x_t = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    keep_h, keep_w = DIMS[dim][2]
    out_h, out_w = (keep_h or H // TILE) * TILE, (keep_w or W // TILE) * TILE
    out_t = ttnn.allocate_tensor_on_device(
        ttnn.Shape([1, 1, out_h, out_w]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, ttnn.DRAM_MEMORY_CONFIG
    )
    out = reduce_program(x_t, out_t, dim, H // TILE, W // TILE, (out_h // TILE) * (out_w // TILE))
    want = DIMS[dim][1](x.float())
    got = ttnn.to_torch(out).float()[..., : want.shape[-2], : want.shape[-1]]
    assert_close(got, want, pcc=0.999, atol=0.5, rtol=0.02)
