"""Corpus: ttnn 0.81.1's tiled WH transpose kernels, launched through generic_op, checked against torch.

0.81.1's transpose_wh factory (transpose_wh_program_factory.cpp) is a Metal 2.0 ProgramSpec that binds
the *_metal2 forks; the legacy kernels below stay in the tree for the ops still on ProgramDescriptors
(transpose_wh.cpp's header names permute and the nlp_create_qkv_heads family). The launch follows
the single-core WH transpose that launched exactly these three kernels (transpose_program_factory.cpp,
transpose_wh_single_core): the reader walks each [Ht, Wt] matrix column by column, the compute kernel
transposes each tile, the writer stores the tiles in order."""
import pytest
import torch

import ditmk.ttnn as ttnn
from corpus import assert_close

pytestmark = pytest.mark.tt_corpus

TILE = 32
TILE_BYTES_BF16 = 2048
TRANSPOSE = "ttnn/cpp/ttnn/operations/data_movement/transpose/device/kernels"
UNARY_WRITER = "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp"


def transpose_wh_single_core(device, x_t, out_t, N, Ht, Wt):
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    num_tiles = N * Ht * Wt
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    reader_rt[0][0] = [x_t.buffer_address(), N, Ht, Wt, Ht * Wt]
    compute_rt[0][0] = [num_tiles]
    writer_rt[0][0] = [out_t.buffer_address(), num_tiles, 0]
    kernels = [
        ttnn.KernelDescriptor(
            kernel_source=f"{TRANSPOSE}/dataflow/reader_unary_transpose_wh_interleaved.cpp",
            core_ranges=core,
            compile_time_args=list(ttnn.TensorAccessorArgs(x_t).get_compile_time_args()),
            runtime_args=reader_rt,
            config=ttnn.ReaderConfigDescriptor(),
        ),
        ttnn.KernelDescriptor(
            kernel_source=f"{TRANSPOSE}/compute/transpose_wh.cpp",
            core_ranges=core,
            runtime_args=compute_rt,
            config=ttnn.ComputeConfigDescriptor(),
        ),
        ttnn.KernelDescriptor(
            kernel_source=UNARY_WRITER,
            core_ranges=core,
            compile_time_args=[16] + list(ttnn.TensorAccessorArgs(out_t).get_compile_time_args()),
            runtime_args=writer_rt,
            config=ttnn.WriterConfigDescriptor(),
        ),
    ]
    cbs = [
        ttnn.CBDescriptor(
            total_size=2 * TILE_BYTES_BF16,
            core_ranges=core,
            format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=i, data_format=ttnn.bfloat16,
                                                        page_size=TILE_BYTES_BF16)],  # fmt: skip
        )
        for i in (0, 16)
    ]
    return ttnn.generic_op([x_t, out_t], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("shape", [[1, 1, 64, 96], [2, 1, 32, 64]], ids=["2x3_tiles", "batch2"])
def test_transpose_wh(device, shape):
    g = torch.Generator().manual_seed(7)
    x = torch.randn(*shape, generator=g).to(torch.bfloat16)
    x_t = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    out_shape = shape[:2] + [shape[3], shape[2]]
    out_t = ttnn.allocate_tensor_on_device(
        ttnn.Shape(out_shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, ttnn.DRAM_MEMORY_CONFIG
    )
    N, Ht, Wt = shape[0] * shape[1], shape[2] // TILE, shape[3] // TILE
    out = transpose_wh_single_core(device, x_t, out_t, N, Ht, Wt)
    # A transpose moves bfloat16 values unchanged.
    assert_close(ttnn.to_torch(out).float(), x.transpose(-1, -2).float(), pcc=0.9999, atol=0, rtol=0)
