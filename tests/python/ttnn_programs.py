"""Programs written against ditmk.ttnn as one writes them for ttnn, on ditmk's example kernels
(examples/tt/*/kernels), shared by the test_ttnn_* files."""
import os
from pathlib import Path

import numpy as np

import ditmk.ttnn as ttnn

SOURCE = Path(os.environ.get("DITMK_SOURCE_DIR", Path(__file__).resolve().parents[2]))
EXAMPLES = SOURCE / "examples" / "tt"


def bf16(x):
    """float32 values rounded to bfloat16 (nearest even), as float32."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16).astype(np.uint32)
    return rounded.view(np.float32)


def eltwise_add_program(a, b, c, grid=(4, 2), tiles_per_core=None):
    """examples/tt/eltwise_add: c = a + b over bf16 tiles, the tiles split evenly over a grid of cores
    by per-core runtime args (reader, compute with the per-core count as a compile-time arg, writer)."""
    num_tiles = a.shape.volume() // 1024
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(grid[0] - 1, grid[1] - 1))])
    per_core = tiles_per_core or num_tiles // cores.num_cores()
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    start = 0
    for core in cores.ranges()[0].cores():
        reader_args[core.x][core.y] = [a.buffer_address(), b.buffer_address(), start, per_core]
        writer_args[core.x][core.y] = [c.buffer_address(), start, per_core]
        start += per_core
    kernels = EXAMPLES / "eltwise_add" / "kernels"
    reader = ttnn.KernelDescriptor(kernel_source=str(kernels / "reader_binary.cpp"), core_ranges=cores,
                                   runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor())
    compute = ttnn.KernelDescriptor(kernel_source=str(kernels / "add.cpp"), core_ranges=cores,
                                    compile_time_args=[per_core], config=ttnn.ComputeConfigDescriptor())
    writer = ttnn.KernelDescriptor(kernel_source=str(kernels / "writer_unary.cpp"), core_ranges=cores,
                                   runtime_args=writer_args, config=ttnn.WriterConfigDescriptor())

    def cb(index):
        return ttnn.CBDescriptor(total_size=2 * 2048, core_ranges=cores,
                                 format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=index,
                                                                             data_format=ttnn.bfloat16, page_size=2048)])

    return ttnn.ProgramDescriptor(kernels=[reader, compute, writer], semaphores=[], cbs=[cb(0), cb(1), cb(16)])


def eltwise_add(device, a_values, b_values, memory_config=None, **options):
    """Runs eltwise_add on two float32 arrays; returns (a, b, c) device tensors."""
    mc = memory_config or ttnn.DRAM_MEMORY_CONFIG
    a = ttnn.from_torch(a_values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=mc)
    b = ttnn.from_torch(b_values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=mc)
    c = ttnn.allocate_tensor_on_device(ttnn.Shape(a_values.shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, mc)
    out = ttnn.generic_op([a, b, c], eltwise_add_program(a, b, c), **options)
    assert out is c
    return a, b, c
