#!/usr/bin/python3
"""loopback in Python: program.json's program written with ditmk.ttnn, as one writes it for ttnn.

One data-movement kernel on core (0, 0) copies a float32 DRAM tensor into another through CB 0,
`block_pages` pages at a time. Run it from the repository root:

    PYTHONPATH=build/release/python /usr/bin/python3 examples/tt/loopback/program.py
"""
import sys
from pathlib import Path

import ditmk.ttnn as ttnn

KERNELS = Path(__file__).resolve().parent / "kernels"
sys.path.insert(0, str(KERNELS.parents[1]))  # examples/tt: the inputs and numpy reference of example.py

TENSORS = ("src", "dst")  # the io tensors, in generic_op's order: inputs first, the output last
INPUT_SHAPES = {"src": (256, 256)}

FLOAT32_TILE_BYTES = 32 * 32 * 4  # one page of a float32 TILE_LAYOUT tensor: a 32x32 tile
BLOCK_PAGES = 8  # pages the kernel moves per CB fill (CB 0 holds exactly one block)


def loopback_program(src, dst):
    """The ProgramDescriptor copying `src` into `dst` (both float32 tiles in DRAM)."""
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    num_pages = src.volume() // (32 * 32)

    # Runtime args are per core: the kernel reads them with get_arg_val<uint32_t>(i). Buffer
    # addresses are known only once the tensors are allocated, so they are always runtime args.
    runtime_args = ttnn.RuntimeArgs()
    runtime_args[0][0] = [src.buffer_address(), dst.buffer_address(), num_pages]

    copy = ttnn.KernelDescriptor(
        kernel_source=str(KERNELS / "loopback.cpp"),
        core_ranges=core,
        # Named compile-time args: get_named_compile_time_arg_val("page_size") in the kernel.
        named_compile_time_args=[("page_size", FLOAT32_TILE_BYTES), ("block_pages", BLOCK_PAGES)],
        runtime_args=runtime_args,
        # A plain data-movement kernel on RISCV_0 (BRISC), issuing on NoC 0.
        config=ttnn.DataMovementConfigDescriptor(processor=ttnn.DataMovementProcessor.RISCV_0, noc=ttnn.NOC.NOC_0))

    # CB 0: one block of float32 pages in the core's L1.
    staging = ttnn.CBDescriptor(
        total_size=BLOCK_PAGES * FLOAT32_TILE_BYTES, core_ranges=core,
        format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=0, data_format=ttnn.float32,
                                                    page_size=FLOAT32_TILE_BYTES)])
    return ttnn.ProgramDescriptor(kernels=[copy], semaphores=[], cbs=[staging])


def build(device, src):
    """(io_tensors, program) for a float32 array `src` whose tile count is a multiple of BLOCK_PAGES."""
    src_tensor = ttnn.from_torch(src, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=device,
                                 memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst_tensor = ttnn.allocate_tensor_on_device(ttnn.Shape(src.shape), ttnn.float32, ttnn.TILE_LAYOUT, device,
                                                ttnn.DRAM_MEMORY_CONFIG)
    return [src_tensor, dst_tensor], loopback_program(src_tensor, dst_tensor)


if __name__ == "__main__":
    import ttnn_run
    sys.exit(ttnn_run.run_and_check("loopback", build, TENSORS, INPUT_SHAPES))
