#!/usr/bin/python3
"""matmul_mcast in Python: program.json's program written with ditmk.ttnn, as one writes it for ttnn.

C = A @ B on a grid of cores, core (x, y) computing C's output block (y, x) of PER_CORE_M x
PER_CORE_N tiles. The left column reads A's K blocks from DRAM and multicasts them along its row;
the top row reads B's K blocks and multicasts them down its column; the corner does both. One
reader source plays the four roles, chosen per core range by the defines IN0_SENDER / IN1_SENDER.
Run it from the repository root:

    PYTHONPATH=build/release/python /usr/bin/python3 examples/tt/matmul_mcast/program.py
"""
import sys
from pathlib import Path

import ditmk.ttnn as ttnn

KERNELS = Path(__file__).resolve().parent / "kernels"
sys.path.insert(0, str(KERNELS.parents[1]))  # examples/tt: the inputs and numpy reference of example.py

TENSORS = ("a", "b", "c")  # the io tensors, in generic_op's order: inputs first, the output last
INPUT_SHAPES = {"a": (128, 128), "b": (128, 192)}

BF16_TILE_BYTES = 32 * 32 * 2  # one page of a bfloat16 TILE_LAYOUT tensor: a 32x32 tile
PER_CORE_M = 2  # output block rows of one core (tiles)
PER_CORE_N = 2  # output block columns of one core (tiles)
BLOCK_W = 2  # K tiles per block: what one multicast moves
# Semaphore ids (the SemaphoreDescriptors below), two per operand: a sender counts its ready
# receivers on its "sender" semaphore and flags the data on the receivers' "receiver" semaphore.
IN0_SENDER_SEM, IN0_RECEIVER_SEM, IN1_SENDER_SEM, IN1_RECEIVER_SEM = 0, 1, 2, 3


def cores(x0, y0, x1, y1):
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(x0, y0), ttnn.CoreCoord(x1, y1))])


def matmul_mcast_program(a, b, c):
    """The ProgramDescriptor of c = a @ b (bfloat16 tiles in DRAM) on an (Nt / PER_CORE_N) x
    (Mt / PER_CORE_M) grid of cores."""
    Mt, Kt, Nt = a.shape[-2] // 32, a.shape[-1] // 32, b.shape[-1] // 32
    if Mt % PER_CORE_M or Nt % PER_CORE_N or Kt % BLOCK_W:
        raise ValueError(f"matmul_mcast: {Mt}x{Kt} @ {Kt}x{Nt} tiles do not split into "
                         f"{PER_CORE_M}x{BLOCK_W} and {BLOCK_W}x{PER_CORE_N} blocks")
    grid_w, grid_h = Nt // PER_CORE_N, Mt // PER_CORE_M
    grid = cores(0, 0, grid_w - 1, grid_h - 1)

    # Every reader gets both tensors' TensorAccessor descriptions (A's, then B's) and the sizes.
    reader_compile_args = ttnn.TensorAccessorArgs(a).get_compile_time_args() \
        + ttnn.TensorAccessorArgs(b).get_compile_time_args()
    reader_named_args = [("Kt", Kt), ("Nt", Nt), ("block_w", BLOCK_W), ("per_core_M", PER_CORE_M),
                         ("per_core_N", PER_CORE_N), ("in0_sender_sem", IN0_SENDER_SEM),
                         ("in0_receiver_sem", IN0_RECEIVER_SEM), ("in1_sender_sem", IN1_SENDER_SEM),
                         ("in1_receiver_sem", IN1_RECEIVER_SEM)]

    def reader_args(x, y):
        # The same layout on every core; a role ignores what it does not use (zeros here). A
        # multicast destination is a rectangle [x0, y0, x1, y1] plus its number of cores, in NoC
        # coordinates, which on the emulated chip are the logical ones.
        in0_dest = [1, y, grid_w - 1, y, grid_w - 1] if x == 0 else [0] * 5  # the rest of row y
        in1_dest = [x, 1, x, grid_h - 1, grid_h - 1] if y == 0 else [0] * 5  # the rest of column x
        return ([a.buffer_address(), b.buffer_address(), y * PER_CORE_M * Kt, x * PER_CORE_N]
                + in0_dest + [0, y] + in1_dest + [x, 0])

    # The four roles, each a core range with its own defines (they become -D flags).
    roles = [((0, 0, 0, 0), 1, 1),                            # the corner sends A and B
             ((1, 0, grid_w - 1, 0), 0, 1),                   # the top row sends B, receives A
             ((0, 1, 0, grid_h - 1), 1, 0),                   # the left column sends A, receives B
             ((1, 1, grid_w - 1, grid_h - 1), 0, 0)]          # the rest receive both
    kernels = []
    for (x0, y0, x1, y1), in0_sender, in1_sender in roles:
        if x0 > x1 or y0 > y1:
            continue  # a grid one core wide or high has no such role
        args = ttnn.RuntimeArgs()
        for core in cores(x0, y0, x1, y1).cores():
            args[core.x][core.y] = reader_args(core.x, core.y)
        kernels.append(ttnn.KernelDescriptor(
            kernel_source=str(KERNELS / "reader_mcast.cpp"), core_ranges=cores(x0, y0, x1, y1),
            compile_time_args=reader_compile_args, named_compile_time_args=reader_named_args,
            defines=[("IN0_SENDER", str(in0_sender)), ("IN1_SENDER", str(in1_sender))],
            runtime_args=args, config=ttnn.ReaderConfigDescriptor()))

    # Compute: every core multiplies its block, accumulating the K blocks in float32 DST.
    kernels.append(ttnn.KernelDescriptor(
        kernel_source=str(KERNELS / "bmm_block.cpp"), core_ranges=grid,
        compile_time_args=[BLOCK_W, Kt // BLOCK_W, PER_CORE_M, PER_CORE_N],
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=True)))

    # Writer: every core stores its block, starting at output tile C(y * PER_CORE_M, x * PER_CORE_N).
    writer_args = ttnn.RuntimeArgs()
    for core in grid.cores():
        writer_args[core.x][core.y] = [c.buffer_address(), core.y * PER_CORE_M * Nt + core.x * PER_CORE_N]
    kernels.append(ttnn.KernelDescriptor(
        kernel_source=str(KERNELS / "writer_block.cpp"), core_ranges=grid,
        compile_time_args=ttnn.TensorAccessorArgs(c).get_compile_time_args(),
        named_compile_time_args=[("Nt", Nt), ("per_core_M", PER_CORE_M), ("per_core_N", PER_CORE_N)],
        runtime_args=writer_args, config=ttnn.WriterConfigDescriptor()))

    def cb(index, tiles):
        return ttnn.CBDescriptor(total_size=tiles * BF16_TILE_BYTES, core_ranges=grid,
                                 format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=index,
                                                                             data_format=ttnn.bfloat16,
                                                                             page_size=BF16_TILE_BYTES)])

    # Every core configures the same CBs in the same order, so a CB has the same L1 address on every
    # core: a sender multicasts to its own write pointer. The input CBs hold two K blocks each.
    cbs = [cb(0, 2 * PER_CORE_M * BLOCK_W), cb(1, 2 * BLOCK_W * PER_CORE_N), cb(16, PER_CORE_M * PER_CORE_N)]
    # Semaphores live in every core's L1, at the same address on each, starting at 0.
    semaphores = [ttnn.SemaphoreDescriptor(id=i, core_ranges=grid, initial_value=0)
                  for i in (IN0_SENDER_SEM, IN0_RECEIVER_SEM, IN1_SENDER_SEM, IN1_RECEIVER_SEM)]
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=semaphores, cbs=cbs)


def build(device, a, b):
    """(io_tensors, program) for arrays a [M, K] and b [K, N] that split into the blocks above."""
    dram = ttnn.DRAM_MEMORY_CONFIG
    a_tensor = ttnn.from_torch(a, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=dram)
    b_tensor = ttnn.from_torch(b, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=dram)
    c_tensor = ttnn.allocate_tensor_on_device(ttnn.Shape([a.shape[0], b.shape[1]]), ttnn.bfloat16, ttnn.TILE_LAYOUT,
                                              device, dram)
    return [a_tensor, b_tensor, c_tensor], matmul_mcast_program(a_tensor, b_tensor, c_tensor)


if __name__ == "__main__":
    import ttnn_run
    sys.exit(ttnn_run.run_and_check("matmul_mcast", build, TENSORS, INPUT_SHAPES))
