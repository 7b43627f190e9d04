"""tt-metal's generic_op pattern (its tests/ttnn/unit_tests/operations/debug/test_generic_op.py):
eltwise exp over 1, 12, 64 and 128 tiles on an 8x8 grid split by split_work_to_cores (both core
groups), with ttnn 0.81.1's own unary reader, eltwise_sfpu compute (SFPU_OP_CHAIN_0 defines) and
unary writer, run unchanged from the reference tree, written as one writes it for ttnn."""
import os
from pathlib import Path

import numpy as np
import pytest

import ditmk.ttnn as ttnn
import tt_metal_tree
from tt_corpus.corpus import assert_close

torch = pytest.importorskip("torch")

TREE = tt_metal_tree.tree()
SOURCE = Path(os.environ.get("DITMK_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DEVICE_API = SOURCE / "src" / "ditmk" / "tt" / "dialect" / "include" / "api" / "dataflow"
OBJECT_API = all((DEVICE_API / h).exists() for h in ("noc.h", "dataflow_buffer.h"))

pytestmark = [
    pytest.mark.skipif(TREE is None, reason=tt_metal_tree.missing()),
    pytest.mark.xfail(not OBJECT_API, strict=True,
                      reason="the unary kernels include api/dataflow/noc.h and dataflow_buffer.h, which ditmk's "
                             "device headers do not provide yet"),
]

KERNELS = "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels"


@pytest.fixture
def device(monkeypatch):
    monkeypatch.setenv("TT_METAL_HOME", str(TREE))
    dev = ttnn.open_device(device_id=0)
    yield dev
    ttnn.close_device(dev)


@pytest.mark.parametrize("num_tiles", [1, 12, 64, 128])
def test_eltwise_exp(device, num_tiles):
    shape = [1, num_tiles, 32, 32]
    data = torch.rand(shape).to(torch.bfloat16)
    dram_memory_config = ttnn.DRAM_MEMORY_CONFIG
    input_tensor = ttnn.from_torch(data, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                                   memory_config=dram_memory_config)
    output_tensor = ttnn.allocate_tensor_on_device(ttnn.Shape(shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                                   dram_memory_config)
    io_tensors = [input_tensor, output_tensor]

    max_core = ttnn.CoreCoord(7, 7)
    all_cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), max_core)])
    (_, core_grid, core_group_1, core_group_2, work_per_core1, work_per_core2) = ttnn.split_work_to_cores(
        all_cores, num_tiles)
    if num_tiles == 128:
        assert core_group_2.num_cores() == 0 and work_per_core1 == 2
    if num_tiles == 64:
        assert core_group_1.num_cores() == 64

    in_cb, out_cb = 0, 2
    cb_page_size = 2 * 1024
    cbs = [ttnn.CBDescriptor(total_size=2 * cb_page_size, core_ranges=core_grid,
                             format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=index, data_format=ttnn.bfloat16,
                                                                         page_size=cb_page_size)])
           for index in (in_cb, out_cb)]

    reader_compile_time_args = ttnn.TensorAccessorArgs(input_tensor).get_compile_time_args()
    writer_compile_time_args = [out_cb]
    writer_compile_time_args.extend(ttnn.TensorAccessorArgs(output_tensor).get_compile_time_args())

    reader_rt_args, writer_rt_args, compute_rt_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    current_tile = 0
    for group, work in ((core_group_1, work_per_core1), (core_group_2, work_per_core2)):
        for core_range in group.ranges():
            for x in range(core_range.start.x, core_range.end.x + 1):
                for y in range(core_range.start.y, core_range.end.y + 1):
                    reader_rt_args[x][y] = [input_tensor.buffer_address(), work, current_tile]
                    writer_rt_args[x][y] = [output_tensor.buffer_address(), work, current_tile]
                    compute_rt_args[x][y] = [work]
                    current_tile += work
    assert current_tile == num_tiles

    reader = ttnn.KernelDescriptor(
        kernel_source=f"{KERNELS}/dataflow/reader_unary_interleaved_start_id.cpp",
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH, core_ranges=core_grid,
        compile_time_args=reader_compile_time_args, runtime_args=reader_rt_args, config=ttnn.ReaderConfigDescriptor())
    writer = ttnn.KernelDescriptor(
        kernel_source=f"{KERNELS}/dataflow/writer_unary_interleaved_start_id.cpp",
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH, core_ranges=core_grid,
        compile_time_args=writer_compile_time_args, runtime_args=writer_rt_args, config=ttnn.WriterConfigDescriptor())
    sfpu_defines = [("SFPU_OP_EXP_INCLUDE", "1"), ("SFPU_OP_CHAIN_0", "exp_tile_init(); exp_tile(0);")]
    compute = ttnn.KernelDescriptor(
        kernel_source=f"{KERNELS}/compute/eltwise_sfpu.cpp", core_ranges=core_grid, compile_time_args=[],
        defines=sfpu_defines, runtime_args=compute_rt_args, config=ttnn.ComputeConfigDescriptor())
    program_descriptor = ttnn.ProgramDescriptor(kernels=[reader, writer, compute], semaphores=[], cbs=cbs)

    output = ttnn.generic_op(io_tensors, program_descriptor)
    assert output is output_tensor
    torch_output = ttnn.to_torch(output)
    golden = torch.exp(data.float())
    assert_close(torch_output.float(), golden, pcc=0.999, atol=1e-2, rtol=1.6e-2)
    # the input is as it was written
    assert torch.equal(ttnn.to_torch(input_tensor), data)
