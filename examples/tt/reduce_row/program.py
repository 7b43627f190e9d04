#!/usr/bin/python3
"""reduce_row in Python: program.json's program written with ditmk.ttnn, as one writes it for ttnn.

Row sums of a [H, W] bfloat16 tensor into [H, 32]: column 0 of each output row holds the sum,
the other columns zero. The reader fills a scaler tile (1.0 for a sum) and streams the input; the
compute kernel reduces each tile row with reduce_tile, the reduction picked by two defines; the
writer takes its args as common runtime args. Run it from the repository root:

    PYTHONPATH=build/release/python /usr/bin/python3 examples/tt/reduce_row/program.py
"""
import sys
from pathlib import Path

import ditmk.ttnn as ttnn

KERNELS = Path(__file__).resolve().parent / "kernels"
sys.path.insert(0, str(KERNELS.parents[1]))  # examples/tt: the inputs and numpy reference of example.py

TENSORS = ("x", "sums")  # the io tensors, in generic_op's order: inputs first, the output last
INPUT_SHAPES = {"x": (64, 128)}

BF16_TILE_BYTES = 32 * 32 * 2  # one page of a bfloat16 TILE_LAYOUT tensor: a 32x32 tile
BF16_ONE = 0x3F80  # 1.0 in bfloat16: the scaler of a sum (a mean would use 1/W)


def reduce_row_program(x, sums):
    """The ProgramDescriptor of sums[:, 0] = x.sum(-1) on core (0, 0) (bfloat16 tiles in DRAM)."""
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    Ht, Wt = x.shape[-2] // 32, x.shape[-1] // 32  # tile rows; tiles per row (the reduced dimension)

    reader_args = ttnn.RuntimeArgs()
    reader_args[0][0] = [x.buffer_address(), Ht * Wt]
    reader = ttnn.KernelDescriptor(
        kernel_source=str(KERNELS / "reader_reduce.cpp"), core_ranges=core,
        # The scaler as two bfloat16 copies in one word: the reader stores two elements a store.
        named_compile_time_args=[("packed_scaler", BF16_ONE << 16 | BF16_ONE)],
        runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor())

    compute = ttnn.KernelDescriptor(
        kernel_source=str(KERNELS / "reduce_row.cpp"), core_ranges=core, compile_time_args=[Ht, Wt],
        # Defines become -D flags: the same kernel would take a max or a column reduction.
        defines=[("REDUCE_OP", "PoolType::SUM"), ("REDUCE_DIM", "ReduceDim::REDUCE_ROW")],
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=True))

    # Common runtime args: one list every core of the kernel shares (get_common_arg_val).
    writer = ttnn.KernelDescriptor(
        kernel_source=str(KERNELS / "writer_reduce.cpp"), core_ranges=core,
        common_runtime_args=[sums.buffer_address(), Ht], config=ttnn.WriterConfigDescriptor())

    def cb(index, tiles):
        return ttnn.CBDescriptor(total_size=tiles * BF16_TILE_BYTES, core_ranges=core,
                                 format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=index,
                                                                             data_format=ttnn.bfloat16,
                                                                             page_size=BF16_TILE_BYTES)])

    # CB 0: input tiles (double-buffered); CB 2: the scaler tile, written once; CB 16: output tiles.
    return ttnn.ProgramDescriptor(kernels=[reader, compute, writer], semaphores=[], cbs=[cb(0, 2), cb(2, 1), cb(16, 2)])


def build(device, x):
    """(io_tensors, program) for an array x [H, W] (multiples of 32)."""
    dram = ttnn.DRAM_MEMORY_CONFIG
    x_tensor = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=dram)
    sums = ttnn.allocate_tensor_on_device(ttnn.Shape([x.shape[0], 32]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, dram)
    return [x_tensor, sums], reduce_row_program(x_tensor, sums)


if __name__ == "__main__":
    import ttnn_run
    sys.exit(ttnn_run.run_and_check("reduce_row", build, TENSORS, INPUT_SHAPES))
