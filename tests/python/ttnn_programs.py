"""The examples/tt programs in their Python form (examples/tt/NAME/program.py, written against
ditmk.ttnn as one writes them for ttnn), shared by the test_ttnn_* files."""
import importlib.util
import os
import sys
from pathlib import Path

import numpy as np

import ditmk.ttnn as ttnn

SOURCE = Path(os.environ.get("DITMK_SOURCE_DIR", Path(__file__).resolve().parents[2])).resolve()
EXAMPLES = SOURCE / "examples" / "tt"


def bf16(x):
    """float32 values rounded to bfloat16 (nearest even), as float32."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16).astype(np.uint32)
    return rounded.view(np.float32)


def example_program(name):
    """examples/tt/NAME/program.py as a module (every example's file is named program.py, so each
    gets its own module name)."""
    module_name = f"examples_tt_{name}_program"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / name / "program.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


eltwise_add_program = example_program("eltwise_add").eltwise_add_program


def eltwise_add(device, a_values, b_values, memory_config=None, **options):
    """Runs examples/tt/eltwise_add on two arrays; returns (a, b, c) device tensors."""
    io_tensors, program = example_program("eltwise_add").build(device, a_values, b_values, memory_config)
    out = ttnn.generic_op(io_tensors, program, **options)
    assert out is io_tensors[-1]
    return tuple(io_tensors)
