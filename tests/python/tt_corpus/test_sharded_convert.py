"""Corpus: ttnn.interleaved_to_sharded with a dtype conversion, as ttnn 0.81.1's
InterleavedToShardedProgramFactory::create_descriptor launches it (interleaved_to_sharded_program_factory.cpp,
its convert_df path), kernels unchanged from the reference tree, checked exactly against torch.

When the output's dtype differs from the input's the factory streams the input through a compute
kernel: the reader fills CB c_0 (the input's format, a whole shard of pages, not bound to a buffer),
data_movement/sharded's eltwise_copy.cpp copies every tile through DST into c_16 (the output's
format, bound to the output's shard), and writer_unary_sharded.cpp only waits for the shard's
pages. Blackhole also gets the scratch CB c_1 the row path aligns DRAM reads through (4 pages of a
unit plus 64 B). The output is L1 height-sharded over the first cores of row 0; the last shard is
shorter than the others, so its core reads, copies and waits for fewer tiles."""
import numpy as np
import pytest
import torch

import ditmk.ttnn as ttnn
from layout_factories import TILE, ceil_div, corerange_to_cores

pytestmark = pytest.mark.tt_corpus

SHARDED = "ttnn/cpp/ttnn/operations/data_movement/sharded/device/kernels/"
TILE_BYTES = {ttnn.bfloat16: 2048, ttnn.float32: 4096}
IN_CB, SCRATCH_CB, OUT_CB = 0, 1, 16


def _cb(index, dtype, page_size, pages, cores, buffer=None):
    fmt = ttnn.CBFormatDescriptor(buffer_index=index, data_format=dtype, page_size=page_size)
    if buffer is None:
        return ttnn.CBDescriptor(total_size=pages * page_size, core_ranges=cores, format_descriptors=[fmt])
    return ttnn.CBDescriptor(total_size=pages * page_size, core_ranges=cores, format_descriptors=[fmt], buffer=buffer)


def height_sharded(shard_rows, width, num_cores):
    """L1 HEIGHT_SHARDED over the first `num_cores` cores of row 0, shards of `shard_rows` full rows."""
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(num_cores - 1, 0))])
    spec = ttnn.ShardSpec(grid, [shard_rows, width], ttnn.ShardOrientation.ROW_MAJOR)
    return ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, spec)


def interleaved_to_sharded_convert_program(src, dst):
    """The factory for tile tensors whose dtypes differ, a height-sharded L1 output."""
    assert src.layout == ttnn.TILE_LAYOUT and src.dtype != dst.dtype
    spec = dst.memory_config().shard_spec
    shard_h, shard_w = spec.shape
    grid = spec.grid
    cores = corerange_to_cores(grid, row_wise=True)  # the shard cores in the shards' (row-major) order
    in_unit, out_unit = TILE_BYTES[src.dtype], TILE_BYTES[dst.dtype]
    units_h, units_w = shard_h // TILE, shard_w // TILE
    per_shard = units_h * units_w
    units_per_row = src.padded_shape[-1] // TILE
    height_units = int(np.prod(src.padded_shape)) // src.padded_shape[-1] // TILE
    last_h = units_h - (ceil_div(height_units, units_h) * units_h - height_units)
    scratch_page = ceil_div(in_unit + 64, 64) * 64
    cbs = [_cb(IN_CB, src.dtype, in_unit, per_shard, grid),
           _cb(OUT_CB, dst.dtype, out_unit, per_shard, grid, buffer=dst),
           _cb(SCRATCH_CB, src.dtype, scratch_page, 4, grid)]  # fmt: skip
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    idx_h = idx_w = 0
    for core in cores:
        height = last_h if core == cores[-1] else units_h
        units = height * units_w
        reader_rt[core.x][core.y] = [src.buffer_address(), height, units_w, 0, units_per_row, units, idx_h + idx_w, 0]
        writer_rt[core.x][core.y] = [units]
        compute_rt[core.x][core.y] = [units]
        idx_w += units_w
        if idx_w >= units_per_row:
            idx_w, idx_h = 0, idx_h + units_per_row * units_h
    reader_ct = [IN_CB, len(cores)] + ttnn.TensorAccessorArgs(src).get_compile_time_args()
    kernels = [
        ttnn.KernelDescriptor(kernel_source=SHARDED + "dataflow/reader_unary_sharded_blocks_interleaved_start_id.cpp",
                              core_ranges=grid, runtime_args=reader_rt, config=ttnn.ReaderConfigDescriptor(),
                              compile_time_args=reader_ct),
        ttnn.KernelDescriptor(kernel_source=SHARDED + "dataflow/writer_unary_sharded.cpp", core_ranges=grid,
                              compile_time_args=[OUT_CB], runtime_args=writer_rt, config=ttnn.WriterConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=SHARDED + "compute/eltwise_copy.cpp", core_ranges=grid,
                              runtime_args=compute_rt, config=ttnn.ComputeConfigDescriptor()),
    ]  # fmt: skip
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


@pytest.mark.parametrize("in_dtype,out_dtype", [(ttnn.bfloat16, ttnn.float32), (ttnn.float32, ttnn.bfloat16)],
                         ids=["bf16_to_fp32", "fp32_to_bf16"])  # fmt: skip
def test_interleaved_to_sharded_convert(device, in_dtype, out_dtype):
    """A 1 x 1 x 224 x 64 DRAM tensor (7 tile rows of 2 tiles) into L1 height-sharded over 4 cores in
    shards of 64 rows: three shards of 2 tile rows and a last one of 1."""
    shape = (1, 1, 224, 64)
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(50))
    if in_dtype == ttnn.bfloat16:
        x = x.to(torch.bfloat16)
    src = ttnn.from_torch(x, dtype=in_dtype, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(list(shape)), out_dtype, ttnn.TILE_LAYOUT, device,
                                         height_sharded(64, 64, 4))  # fmt: skip
    got = ttnn.to_torch(ttnn.generic_op([src, dst], interleaved_to_sharded_convert_program(src, dst)))
    want = x.float() if out_dtype == ttnn.float32 else x.to(torch.bfloat16)
    assert torch.equal(got, want)
