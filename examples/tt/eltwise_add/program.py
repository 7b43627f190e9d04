#!/usr/bin/python3
"""eltwise_add in Python: program.json's program written with ditmk.ttnn, as one writes it for ttnn.

c = a + b over bfloat16 tiles, the tiles split evenly over a 4 x 2 rectangle of cores. Every core
runs the classic trio: a reader (DRAM -> CBs 0 and 1), a compute kernel (CB 0 + CB 1 -> CB 16) and a
writer (CB 16 -> DRAM). Run it from the repository root:

    PYTHONPATH=build/release/python /usr/bin/python3 examples/tt/eltwise_add/program.py
"""
import sys
from pathlib import Path

import ditmk.ttnn as ttnn

KERNELS = Path(__file__).resolve().parent / "kernels"
sys.path.insert(0, str(KERNELS.parents[1]))  # examples/tt: the inputs and numpy reference of example.py

TENSORS = ("a", "b", "c")  # the io tensors, in generic_op's order: inputs first, the output last
INPUT_SHAPES = {"a": (128, 512), "b": (128, 512)}

BF16_TILE_BYTES = 32 * 32 * 2  # one page of a bfloat16 TILE_LAYOUT tensor: a 32x32 tile


def eltwise_add_program(a, b, c, grid=(4, 2), tiles_per_core=None):
    """The ProgramDescriptor of c = a + b (bfloat16 tiles in DRAM) on a grid[0] x grid[1] rectangle
    of cores, each adding `tiles_per_core` consecutive tiles (default: the tiles split evenly)."""
    num_tiles = a.shape.volume() // (32 * 32)
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(grid[0] - 1, grid[1] - 1))])
    per_core = tiles_per_core or num_tiles // cores.num_cores()

    # The split lives in per-core runtime args: core i handles tiles [start, start + per_core).
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    start = 0
    for core in cores.ranges()[0].cores():
        reader_args[core.x][core.y] = [a.buffer_address(), b.buffer_address(), start, per_core]
        writer_args[core.x][core.y] = [c.buffer_address(), start, per_core]
        start += per_core

    # ReaderConfigDescriptor / WriterConfigDescriptor: the two data-movement processors (RISCV_1 on
    # NoC 0 reads, RISCV_0 on NoC 1 writes), so reads and writes never share a processor or a NoC.
    reader = ttnn.KernelDescriptor(kernel_source=str(KERNELS / "reader_binary.cpp"), core_ranges=cores,
                                   runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor())
    # The compute kernel takes its tile count as a compile-time arg: every core adds as many tiles.
    compute = ttnn.KernelDescriptor(kernel_source=str(KERNELS / "add.cpp"), core_ranges=cores,
                                    compile_time_args=[per_core], config=ttnn.ComputeConfigDescriptor())
    writer = ttnn.KernelDescriptor(kernel_source=str(KERNELS / "writer_unary.cpp"), core_ranges=cores,
                                   runtime_args=writer_args, config=ttnn.WriterConfigDescriptor())

    def double_buffered_cb(index):
        # Two tiles: the producer fills one while the consumer works on the other.
        return ttnn.CBDescriptor(total_size=2 * BF16_TILE_BYTES, core_ranges=cores,
                                 format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=index,
                                                                             data_format=ttnn.bfloat16,
                                                                             page_size=BF16_TILE_BYTES)])

    # CB 0 and CB 1: the inputs; CB 16: the output (tt-metal numbers output CBs from 16 by convention).
    return ttnn.ProgramDescriptor(kernels=[reader, compute, writer], semaphores=[],
                                  cbs=[double_buffered_cb(0), double_buffered_cb(1), double_buffered_cb(16)])


def build(device, a, b, memory_config=None):
    """(io_tensors, program) for two arrays of the same shape (numpy or torch; a whole number of tiles
    that splits evenly over the 8 cores). The reader reads DRAM, so tensors anywhere else fault."""
    mc = memory_config or ttnn.DRAM_MEMORY_CONFIG
    a_tensor = ttnn.from_torch(a, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=mc)
    b_tensor = ttnn.from_torch(b, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=mc)
    c_tensor = ttnn.allocate_tensor_on_device(ttnn.Shape(a.shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, mc)
    return [a_tensor, b_tensor, c_tensor], eltwise_add_program(a_tensor, b_tensor, c_tensor)


if __name__ == "__main__":
    import ttnn_run
    sys.exit(ttnn_run.run_and_check("eltwise_add", build, TENSORS, INPUT_SHAPES))
