#!/usr/bin/python3
"""matmul_single in Python: program.json's program written with ditmk.ttnn, as one writes it for ttnn.

C = A @ B on one core: a reader feeds the tiles A(m, k), B(k, n) in the order the compute kernel
multiplies them, the compute kernel accumulates each output tile over K in DST, a writer stores
C. B's format is a parameter: bfloat16 is program.json, bfloat8_b is program_bfp8.json (the same
kernels; only B's tensor and its CB change). Run it from the repository root:

    PYTHONPATH=build/release/python /usr/bin/python3 examples/tt/matmul_single/program.py [--b-dtype bfloat8_b]
"""
import argparse
import sys
from pathlib import Path

import ditmk.ttnn as ttnn

KERNELS = Path(__file__).resolve().parent / "kernels"
sys.path.insert(0, str(KERNELS.parents[1]))  # examples/tt: the inputs and numpy reference of example.py

TENSORS = ("a", "b", "c")  # the io tensors, in generic_op's order: inputs first, the output last
INPUT_SHAPES = {"a": (64, 128), "b": (128, 96)}

# One page of a TILE_LAYOUT tensor is one 32x32 tile: 2 bytes an element in bfloat16; in bfloat8_b
# one byte an element (sign and mantissa) plus one shared exponent byte per 16 elements.
TILE_BYTES = {ttnn.bfloat16: 32 * 32 * 2, ttnn.bfloat8_b: 32 * 32 + 32 * 32 // 16}


def matmul_single_program(a, b, c):
    """The ProgramDescriptor of c = a @ b on core (0, 0): a and c bfloat16, b bfloat16 or bfloat8_b."""
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    Mt, Kt = a.shape[-2] // 32, a.shape[-1] // 32  # tiles: A is Mt x Kt, B is Kt x Nt, C is Mt x Nt
    Nt = b.shape[-1] // 32

    # The reader locates A and B with TensorAccessor: each tensor's description (memory, layout,
    # banks) goes into the compile-time args, A's first, then B's right after it.
    reader_args = ttnn.RuntimeArgs()
    reader_args[0][0] = [a.buffer_address(), b.buffer_address(), Mt, Kt, Nt]
    reader = ttnn.KernelDescriptor(
        kernel_source=str(KERNELS / "reader_mm.cpp"), core_ranges=core,
        compile_time_args=ttnn.TensorAccessorArgs(a).get_compile_time_args()
        + ttnn.TensorAccessorArgs(b).get_compile_time_args(),
        runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor())

    # fp32_dest_acc_en: DST holds float32, so the sum over K is not rounded to bfloat16 per step.
    compute = ttnn.KernelDescriptor(
        kernel_source=str(KERNELS / "mm.cpp"), core_ranges=core, compile_time_args=[Mt, Kt, Nt],
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=True))

    writer_args = ttnn.RuntimeArgs()
    writer_args[0][0] = [c.buffer_address(), Mt * Nt]
    writer = ttnn.KernelDescriptor(
        kernel_source=str(KERNELS / "writer_mm.cpp"), core_ranges=core,
        compile_time_args=ttnn.TensorAccessorArgs(c).get_compile_time_args(),
        runtime_args=writer_args, config=ttnn.WriterConfigDescriptor())

    def two_tile_cb(index, dtype):
        # A CB's pages are in its tensor's format: the unpacker converts them while reading.
        return ttnn.CBDescriptor(total_size=2 * TILE_BYTES[dtype], core_ranges=core,
                                 format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=index, data_format=dtype,
                                                                             page_size=TILE_BYTES[dtype])])

    return ttnn.ProgramDescriptor(kernels=[reader, compute, writer], semaphores=[],
                                  cbs=[two_tile_cb(0, a.dtype), two_tile_cb(1, b.dtype), two_tile_cb(16, c.dtype)])


def build(device, a, b, b_dtype=ttnn.bfloat16):
    """(io_tensors, program) for arrays a [M, K] and b [K, N] (multiples of 32); B stored as b_dtype."""
    if b_dtype not in TILE_BYTES:
        raise ValueError(f"matmul_single: B is bfloat16 or bfloat8_b, not {b_dtype}")
    dram = ttnn.DRAM_MEMORY_CONFIG
    a_tensor = ttnn.from_torch(a, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=dram)
    b_tensor = ttnn.from_torch(b, dtype=b_dtype, layout=ttnn.TILE_LAYOUT, device=device, memory_config=dram)
    c_tensor = ttnn.allocate_tensor_on_device(ttnn.Shape([a.shape[0], b.shape[1]]), ttnn.bfloat16, ttnn.TILE_LAYOUT,
                                              device, dram)
    return [a_tensor, b_tensor, c_tensor], matmul_single_program(a_tensor, b_tensor, c_tensor)


if __name__ == "__main__":
    import ttnn_run
    parser = argparse.ArgumentParser(description="matmul_single written with ditmk.ttnn")
    parser.add_argument("--b-dtype", choices=("bfloat16", "bfloat8_b"), default="bfloat16",
                        help="B's format (bfloat8_b: the program of program_bfp8.json)")
    b_dtype = parser.parse_args().b_dtype
    label = "matmul_single" if b_dtype == "bfloat16" else f"matmul_single (B in {b_dtype})"
    sys.exit(ttnn_run.run_and_check("matmul_single", build, TENSORS, INPUT_SHAPES, label=label,
                                    b_dtype=getattr(ttnn, b_dtype)))
