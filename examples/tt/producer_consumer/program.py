#!/usr/bin/python3
"""producer_consumer in Python: program.json's program written with ditmk.ttnn, as one writes it for ttnn.

Two cores. Core A (0, 0) reads the input from DRAM a round at a time and writes each round straight
into core B's receive CB over the NoC; core B (1, 0) keeps a running sum over the rounds and writes
it to DRAM. Two semaphores carry the handshake ("room for a round", "the round is there"). The
input is [rounds, H, W]: one round is one [H, W] slice. Run it from the repository root:

    PYTHONPATH=build/release/python /usr/bin/python3 examples/tt/producer_consumer/program.py
"""
import sys
from pathlib import Path

import ditmk.ttnn as ttnn

KERNELS = Path(__file__).resolve().parent / "kernels"
sys.path.insert(0, str(KERNELS.parents[1]))  # examples/tt: the inputs and numpy reference of example.py

TENSORS = ("x", "y")  # the io tensors, in generic_op's order: inputs first, the output last
INPUT_SHAPES = {"x": (6, 32, 64)}

BF16_TILE_BYTES = 32 * 32 * 2  # one page of a bfloat16 TILE_LAYOUT tensor: a 32x32 tile
PRODUCER, CONSUMER = (0, 0), (1, 0)  # logical cores; on the emulated chip also their NoC coordinates
SLOT_FREE_SEM, DATA_READY_SEM = 0, 1  # semaphore ids


def core(xy):
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(*xy), ttnn.CoreCoord(*xy))])


def producer_consumer_program(x, y):
    """The ProgramDescriptor of y[r] = x[0] + ... + x[r] (bfloat16 tiles in DRAM) on two cores."""
    rounds = x.shape[0]
    tiles_per_round = x.shape[-2] // 32 * (x.shape[-1] // 32)
    semaphore_ids = [("slot_free_sem", SLOT_FREE_SEM), ("data_ready_sem", DATA_READY_SEM)]

    def kernel(source, on, config, runtime_args=None, **fields):
        args = ttnn.RuntimeArgs()
        if runtime_args is not None:
            args[on[0]][on[1]] = runtime_args
        return ttnn.KernelDescriptor(kernel_source=str(KERNELS / source), core_ranges=core(on), runtime_args=args,
                                     config=config, **fields)

    kernels = [
        # Core A, RISCV_1: DRAM -> staging CB 0, a round at a time.
        kernel("producer_reader.cpp", PRODUCER, ttnn.ReaderConfigDescriptor(),
               [x.buffer_address(), rounds, tiles_per_round]),
        # Core A, RISCV_0: staging CB 0 -> core B's CB 1; it is given B's NoC coordinates.
        kernel("producer_sender.cpp", PRODUCER, ttnn.WriterConfigDescriptor(),
               [*CONSUMER, rounds, tiles_per_round], named_compile_time_args=semaphore_ids),
        # Core B, RISCV_1: its side of the handshake; it is given A's NoC coordinates.
        kernel("consumer_receiver.cpp", CONSUMER, ttnn.ReaderConfigDescriptor(),
               [*PRODUCER, rounds, tiles_per_round], named_compile_time_args=semaphore_ids),
        # Core B, compute: the running sum; bfloat16 DST, as the sums are kept in a bfloat16 CB anyway.
        kernel("consumer_compute.cpp", CONSUMER,
               ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=False),
               compile_time_args=[rounds, tiles_per_round]),
        # Core B, RISCV_0: the sums -> DRAM.
        kernel("consumer_writer.cpp", CONSUMER, ttnn.WriterConfigDescriptor(),
               [y.buffer_address(), rounds * tiles_per_round]),
    ]

    # Every CB is configured on both cores, in this order, so each has the same L1 address on A and
    # on B: A writes into B's CB 1 at its own CB 1's write pointer. CB 1 holds exactly one round.
    both = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(*PRODUCER), ttnn.CoreCoord(*CONSUMER))])

    def cb(index, tiles):
        return ttnn.CBDescriptor(total_size=tiles * BF16_TILE_BYTES, core_ranges=both,
                                 format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=index,
                                                                             data_format=ttnn.bfloat16,
                                                                             page_size=BF16_TILE_BYTES)])

    cbs = [cb(1, tiles_per_round),       # B's receive CB, written by A
           cb(0, 2 * tiles_per_round),   # A's staging CB: two rounds, so reading overlaps sending
           cb(16, tiles_per_round),      # B's output tiles
           cb(24, 2 * tiles_per_round)]  # B's running sums of the previous round (room for two)
    semaphores = [ttnn.SemaphoreDescriptor(id=i, core_ranges=both, initial_value=0)
                  for i in (SLOT_FREE_SEM, DATA_READY_SEM)]
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=semaphores, cbs=cbs)


def build(device, x):
    """(io_tensors, program) for an array x [rounds, H, W] (H and W multiples of 32)."""
    dram = ttnn.DRAM_MEMORY_CONFIG
    x_tensor = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=dram)
    y_tensor = ttnn.allocate_tensor_on_device(ttnn.Shape(x.shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, dram)
    return [x_tensor, y_tensor], producer_consumer_program(x_tensor, y_tensor)


if __name__ == "__main__":
    import ttnn_run
    sys.exit(ttnn_run.run_and_check("producer_consumer", build, TENSORS, INPUT_SHAPES))
