"""ditmk.ttnn.experimental: a Metal 2.0 kernel launched through generic_op with its bindings.

The kernel (tests/tt_dialect/norm_kernels/metal2_bindings.cpp) copies row 0 of the tensor bound as
tensor::src into row 0 of the one bound as tensor::dst, through the buffer bound as dfb::row, and
writes into row 1 what it read by name: args::scale, the first common vararg (past the tensors'
address words), positional compile-time arg 0 (before the tensors' accessor words), dfb::row's entry
size and id, the value of the semaphore bound as sem::ready, and the positional compile-time args as
the kernel's compile-time varargs (their count, vararg 0 by index and by template). Its destination
is opened through the sequence tensor::both (src, dst)."""
import os
from pathlib import Path

import numpy as np
import pytest

import ditmk.ttnn as ttnn
from ditmk.ttnn import experimental

SOURCE = Path(os.environ.get("DITMK_SOURCE_DIR", Path(__file__).resolve().parents[2])).resolve()
KERNEL = str(SOURCE / "tests/tt_dialect/norm_kernels/metal2_bindings.cpp")
ROW_CB = 3


def one_core():
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])


def program(src, dst, bound_src):
    kernel = ttnn.KernelDescriptor(kernel_source=KERNEL, core_ranges=one_core(), compile_time_args=[99],
                                   common_runtime_args=[17, 201], config=ttnn.WriterConfigDescriptor())  # fmt: skip
    experimental.bind(kernel, experimental.Metal2Bindings(
        named_common_runtime_args=["scale"], dataflow_buffers={"row": ROW_CB},
        tensors=[("src", bound_src), ("dst", dst)], tensor_sequences={"both": ["src", "dst"]},
        semaphores={"ready": 1}))  # fmt: skip
    cb = ttnn.CBDescriptor(total_size=64, core_ranges=one_core(),
                           format_descriptors=[ttnn.CBFormatDescriptor(ROW_CB, ttnn.uint32, 64)])  # fmt: skip
    sem = ttnn.SemaphoreDescriptor(id=1, core_ranges=one_core(), initial_value=42)
    return ttnn.ProgramDescriptor(kernels=[kernel], semaphores=[sem], cbs=[cb])


def tensors(device):
    values = (1000 + 7 * np.arange(16)).astype(np.int32).reshape(1, 16)
    src = ttnn.from_torch(values, dtype=ttnn.uint32, layout=ttnn.ROW_MAJOR_LAYOUT, device=device)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape([2, 16]), ttnn.uint32, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.L1_MEMORY_CONFIG)  # fmt: skip
    return values, src, dst


def test_a_metal2_kernel_reads_its_bindings(device):
    values, src, dst = tensors(device)
    out = ttnn.to_numpy(ttnn.generic_op([src, dst], program(src, dst, src)))
    np.testing.assert_array_equal(out[0], values[0])
    np.testing.assert_array_equal(out[1, :9], [17, 201, 99, 64, ROW_CB, 42, 1, 99, 99])


def test_a_bound_tensor_outside_the_io_tensors_is_one_error(device):
    _, src, dst = tensors(device)
    stranger = ttnn.from_torch(np.zeros((1, 16), np.int32), dtype=ttnn.uint32, layout=ttnn.ROW_MAJOR_LAYOUT,
                               device=device)  # fmt: skip
    with pytest.raises(ValueError, match=r"kernels\[0\]: Metal2Bindings tensor 'src' is not one of generic_op's "
                                         r"io_tensors"):  # fmt: skip
        ttnn.generic_op([src, dst], program(src, dst, stranger))


def test_bindings_take_name_tensor_pairs():
    with pytest.raises(TypeError, match=r"Metal2Bindings: tensors\[0\] must be a \(name, ttnn.Tensor\) pair"):
        experimental.Metal2Bindings(tensors=["src"])
