"""tt-metal's generic_op pattern (its tests/ttnn/unit_tests/operations/debug/test_generic_op.py):
eltwise exp over 1, 12, 64 and 128 tiles on an 8x8 grid split by split_work_to_cores, and over 100
tiles, which needs both core groups (36 cores of 2 tiles, 28 of 1), with ttnn 0.81.1's own unary reader, eltwise_sfpu compute (SFPU_OP_CHAIN_0 defines) and
unary writer, run unchanged from the reference tree, written as one writes it for ttnn."""
import pytest

import ditmk.ttnn as ttnn
import tt_metal_tree
from tt_corpus.corpus import assert_close

torch = pytest.importorskip("torch")

TREE = tt_metal_tree.tree()
pytestmark = pytest.mark.skipif(TREE is None, reason=tt_metal_tree.missing())

KERNELS = "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels"


@pytest.fixture
def device(monkeypatch):
    monkeypatch.setenv("TT_METAL_HOME", str(TREE))
    dev = ttnn.open_device(device_id=0)
    yield dev
    ttnn.close_device(dev)


@pytest.mark.parametrize("num_tiles", [1, 12, 64, 128, 100])
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
    if num_tiles == 100:
        assert (core_group_1.num_cores(), work_per_core1, core_group_2.num_cores(), work_per_core2) == (36, 2, 28, 1)

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


def test_eltwise_exp_into_a_height_sharded_output(device):
    """The same kernels with the output height-sharded in L1 over a row of eight cores: the writer's
    TensorAccessor finds each page's shard from the sharded TensorAccessorArgs."""
    num_tiles = 16
    shape = [1, num_tiles, 32, 32]
    data = torch.rand(shape).to(torch.bfloat16)
    input_tensor = ttnn.from_torch(data, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                                   memory_config=ttnn.DRAM_MEMORY_CONFIG)
    shard_cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 5), ttnn.CoreCoord(7, 5))])
    sharded = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                                ttnn.ShardSpec(shard_cores, [64, 32], ttnn.ShardOrientation.ROW_MAJOR))
    output_tensor = ttnn.allocate_tensor_on_device(ttnn.Shape(shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, sharded)

    all_cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 1))])
    (_, core_grid, core_group_1, _, work, _) = ttnn.split_work_to_cores(all_cores, num_tiles)
    cbs = [ttnn.CBDescriptor(total_size=4096, core_ranges=core_grid,
                             format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=i, data_format=ttnn.bfloat16,
                                                                         page_size=2048)]) for i in (0, 2)]
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    tile = 0
    for r in core_group_1.ranges():
        for x in range(r.start.x, r.end.x + 1):
            for y in range(r.start.y, r.end.y + 1):
                reader_rt[x][y] = [input_tensor.buffer_address(), work, tile]
                writer_rt[x][y] = [output_tensor.buffer_address(), work, tile]
                compute_rt[x][y] = [work]
                tile += work
    kernels = [
        ttnn.KernelDescriptor(kernel_source=f"{KERNELS}/dataflow/reader_unary_interleaved_start_id.cpp",
                              core_ranges=core_grid,
                              compile_time_args=ttnn.TensorAccessorArgs(input_tensor).get_compile_time_args(),
                              runtime_args=reader_rt, config=ttnn.ReaderConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=f"{KERNELS}/dataflow/writer_unary_interleaved_start_id.cpp",
                              core_ranges=core_grid,
                              compile_time_args=[2] + ttnn.TensorAccessorArgs(output_tensor).get_compile_time_args(),
                              runtime_args=writer_rt, config=ttnn.WriterConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=f"{KERNELS}/compute/eltwise_sfpu.cpp", core_ranges=core_grid,
                              defines=[("SFPU_OP_EXP_INCLUDE", "1"), ("SFPU_OP_CHAIN_0", "exp_tile_init(); exp_tile(0);")],
                              runtime_args=compute_rt, config=ttnn.ComputeConfigDescriptor()),
    ]
    ttnn.generic_op([input_tensor, output_tensor], ttnn.ProgramDescriptor(kernels=kernels, cbs=cbs))
    assert_close(ttnn.to_torch(output_tensor).float(), torch.exp(data.float()), pcc=0.999)
