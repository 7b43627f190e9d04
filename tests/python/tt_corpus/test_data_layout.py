"""The data-layout family of the corpus: copy, tilize and untilize programs as ttnn 0.81.1's program
factories launch them, kernels unchanged from the reference tree, checked against numpy."""
import numpy as np
import pytest

import ditmk.ttnn as ttnn
from ditmk.ttnn import experimental
from corpus import assert_close

pytestmark = pytest.mark.tt_corpus

COPY = "ttnn/cpp/ttnn/operations/data_movement/copy/device/kernels/"
TILIZE = "ttnn/cpp/ttnn/operations/data_movement/tilize/device/kernels/"
UNTILIZE = "ttnn/cpp/ttnn/operations/data_movement/untilize/device/kernels/"


def _values(shape, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-4.0, 4.0, size=shape).astype(np.float32)


def _grid_to_cores(num_cores, grid_x, grid_y, row_wise=False):
    """tt-metal's grid_to_cores: the first num_cores cores, column by column unless row_wise."""
    if row_wise:
        return [ttnn.CoreCoord(i % grid_x, i // grid_x) for i in range(num_cores)]
    return [ttnn.CoreCoord(i // grid_y, i % grid_y) for i in range(num_cores)]


def _cb(index, dtype, page_size, pages, cores):
    fmt = ttnn.CBFormatDescriptor(buffer_index=index, data_format=dtype, page_size=page_size)
    return ttnn.CBDescriptor(total_size=pages * page_size, core_ranges=cores, format_descriptors=[fmt])


def _copy_program(src, dst, tilized, backwards, unit_size, num_units, convert_dtype):
    """CopyDeviceOperation::SameMemoryConfig::create_descriptor (copy_same_memory_config_program_factory.cpp),
    interleaved tensors: the units (tiles, or rows) split over the whole grid by split_work_to_cores and
    walked column by column (grid_to_cores), two units of CB c_0 per core (c_16 too when converting)."""
    device = src.device()
    grid = device.compute_with_storage_grid_size()
    num_cores, all_cores, group_1, group_2, per_core_1, per_core_2 = ttnn.split_work_to_cores(grid, num_units)
    in_cb, out_cb = 0, 16 if convert_dtype else 0
    in_page = unit_size[0]
    cbs = [_cb(in_cb, src.dtype, in_page, 2, all_cores)]
    if convert_dtype:
        cbs.append(_cb(out_cb, dst.dtype, unit_size[1], 2, all_cores))
    if tilized:
        reader_ct = ttnn.TensorAccessorArgs(src).get_compile_time_args()
        writer_ct = [out_cb] + ttnn.TensorAccessorArgs(dst).get_compile_time_args()
        reader_src, writer_src = COPY + "reader_unary_start_id.cpp", COPY + "writer_unary_start_id.cpp"
    else:
        reader_ct = [in_cb, unit_size[0]] + ttnn.TensorAccessorArgs(src).get_compile_time_args()
        writer_ct = [out_cb, unit_size[1]] + ttnn.TensorAccessorArgs(dst).get_compile_time_args()
        reader_src = "ttnn/cpp/ttnn/kernel/dataflow/reader_unary_stick_layout_interleaved_start_id.cpp"
        writer_src = "ttnn/cpp/ttnn/kernel/dataflow/writer_unary_stick_layout_interleaved_start_id.cpp"
    defines = [("BACKWARDS", "1")] if backwards else []
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    start = num_units - 1 if backwards else 0
    cores = _grid_to_cores(num_cores, grid.x, grid.y)
    group_1_cores = group_1.num_cores()
    for i, core in enumerate(cores):
        n = per_core_1 if i < group_1_cores else per_core_2
        if tilized:
            reader_args[core.x][core.y] = [src.buffer_address(), n, start]
            writer_args[core.x][core.y] = [dst.buffer_address(), n, start]
        else:
            reader_args[core.x][core.y] = [src.buffer_address(), unit_size[0], n, start, 1]
            writer_args[core.x][core.y] = [dst.buffer_address(), unit_size[1], n, start, 1]
        start = start - n if backwards else start + n
    kernels = [
        ttnn.KernelDescriptor(kernel_source=reader_src, core_ranges=all_cores, compile_time_args=reader_ct,
                              defines=defines, runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=writer_src, core_ranges=all_cores, compile_time_args=writer_ct,
                              defines=defines, runtime_args=writer_args, config=ttnn.WriterConfigDescriptor()),
    ]
    if convert_dtype:
        for group, n in ((group_1, per_core_1), (group_2, per_core_2)):
            if group.num_cores():
                kernels.append(ttnn.KernelDescriptor(kernel_source="ttnn/cpp/ttnn/kernel/compute/eltwise_copy.cpp",
                                                     core_ranges=group, compile_time_args=[n],
                                                     config=ttnn.ComputeConfigDescriptor()))
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


@pytest.mark.parametrize("backwards", [False, True], ids=["forward", "backwards"])
def test_copy_tiles(device, backwards):
    """copy of a bf16 tile tensor, 24 tiles over the grid (BACKWARDS walks them from the last)."""
    values = _values((1, 2, 96, 128), 1)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    program = _copy_program(src, dst, True, backwards, (2048, 2048), values.size // 1024, False)
    ttnn.generic_op([src, dst], program)
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))
    assert_close(ttnn.to_numpy(dst), values)


def test_copy_rows(device):
    """copy of a row-major bf16 tensor, one 128 B row per unit, 96 rows over the grid."""
    values = _values((3, 32, 64), 2)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    row = 64 * 2
    program = _copy_program(src, dst, False, False, (row, row), values.size // 64, False)
    ttnn.generic_op([src, dst], program)
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))


def test_copy_tiles_bf16_to_fp32(device):
    """copy that converts bf16 tiles to fp32 through the shared eltwise_copy compute kernel on c_0 -> c_16."""
    values = _values((64, 96), 3)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.float32, ttnn.TILE_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    program = _copy_program(src, dst, True, False, (2048, 4096), values.size // 1024, True)
    ttnn.generic_op([src, dst], program)
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src).astype(np.float32))


def test_tilize_single_core(device):
    """TilizeSingleCoreProgramFactory (tilize_single_core_program_factory.cpp): rows of a row-major
    tensor read 32 at a time into c_0, tilize.cpp's fast tilize into c_16, tiles written out. The
    reader is a Metal 2.0 kernel (args::num_sticks, tensor::src, dfb::in), bound as the ProgramSpec
    binds it through ditmk.ttnn.experimental: tile_height a named compile-time arg, the rest named
    runtime args in the kernel's order."""
    values = _values((64, 128), 4)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    blocks, block = 2, 4
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    row_bytes = values.shape[1] * 2
    # num_sticks, num_tiles_per_block, block_width_size, num_full_blocks_in_row, start_stick_id
    reader_args[0][0] = [values.shape[0], block, row_bytes, 1, 0]
    writer_args[0][0] = [dst.buffer_address(), blocks * block, 0]
    reader = ttnn.KernelDescriptor(kernel_source=TILIZE + "dataflow/reader_unary_stick_layout_split_rows_singlecore.cpp",
                                   core_ranges=core, named_compile_time_args=[("tile_height", 32)],
                                   runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor())  # fmt: skip
    experimental.bind(reader, experimental.Metal2Bindings(
        named_runtime_args=["num_sticks", "num_tiles_per_block", "block_width_size", "num_full_blocks_in_row",
                            "start_stick_id"],
        dataflow_buffers={"in": 0}, tensors=[("src", src)]))  # fmt: skip
    kernels = [
        reader,
        ttnn.KernelDescriptor(kernel_source=TILIZE + "compute/tilize.cpp", core_ranges=core,
                              compile_time_args=[0, 16, blocks, block], config=ttnn.ComputeConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=COPY + "writer_unary_start_id.cpp", core_ranges=core,
                              compile_time_args=[16] + ttnn.TensorAccessorArgs(dst).get_compile_time_args(),
                              runtime_args=writer_args, config=ttnn.WriterConfigDescriptor()),
    ]
    cbs = [_cb(0, ttnn.bfloat16, 2048, block, core), _cb(16, ttnn.bfloat16, 2048, block, core)]
    ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))


def test_untilize_single_core(device):
    """UntilizeSingleCoreProgramFactory (untilize_single_core_program_factory.cpp): tiles read into c_0
    (reader_unary_start_id.cpp), untilize.cpp's fast untilize into c_16 (32 rows of 4 tiles per block),
    rows written out by the split-rows writer, a Metal 2.0 kernel whose args are all named compile-time
    args (args::tile_height, ...), with tensor::dst and dfb::out, bound through ditmk.ttnn.experimental."""
    values = _values((64, 128), 5)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    blocks, block = 2, 4
    reader_args = ttnn.RuntimeArgs()
    reader_args[0][0] = [src.buffer_address(), blocks * block, 0]
    writer = ttnn.KernelDescriptor(
        kernel_source=UNTILIZE + "dataflow/writer_unary_stick_layout_split_rows_single_core.cpp", core_ranges=core,
        named_compile_time_args=[("tile_height", 32), ("num_blocks_across_height", blocks),
                                 ("num_output_columns_of_blocks", 1), ("num_blocks_per_output_column_row", 1),
                                 ("num_tiles_per_output_block", block),
                                 ("output_single_block_width_size", values.shape[1] * 2)],
        config=ttnn.WriterConfigDescriptor())  # fmt: skip
    experimental.bind(writer, experimental.Metal2Bindings(dataflow_buffers={"out": 16}, tensors=[("dst", dst)]))
    kernels = [
        ttnn.KernelDescriptor(kernel_source=UNTILIZE + "dataflow/reader_unary_start_id.cpp", core_ranges=core,
                              compile_time_args=[0] + ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                              runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=UNTILIZE + "compute/untilize.cpp", core_ranges=core,
                              compile_time_args=[blocks, block, 0, 16], config=ttnn.ComputeConfigDescriptor()),
        writer,
    ]
    cbs = [_cb(0, ttnn.bfloat16, 2048, block, core), _cb(16, ttnn.bfloat16, 2048, block, core)]
    ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))
