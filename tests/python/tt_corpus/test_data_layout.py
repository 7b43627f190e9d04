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
CONCAT = "ttnn/cpp/ttnn/operations/data_movement/concat/device/kernels/"
METAL2_WRITER = "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id_metal2.cpp"


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


@pytest.mark.xfail(strict=True, reason="kernel/compute/eltwise_copy.cpp goes through ttnn's kernel_lib/eltwise, whose "
                   "unary/misc.inl includes api/compute/eltwise_unary/negative.h, a header ditmk does not provide")
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


def _split_blocks_for_tilize(cores, nblocks):
    """ttnn::split_blocks_for_tilize: ceil(nblocks / cores) blocks on each full core, the remainder
    on one last (cliff) core; -> (full cores, cliff cores, blocks per full core, blocks on the cliff)."""
    per_core = -(-nblocks // len(cores))
    used = -(-nblocks // per_core)
    cliff = nblocks % per_core
    full = used - (1 if cliff else 0)
    return cores[:full], cores[full:used], per_core, cliff


def _core_set(cores):
    return ttnn.CoreRangeSet([ttnn.CoreRange(c, c) for c in cores])


def test_tilize_multi_core(device):
    """The Metal 2.0 multi-core interleaved tilize factory (tilize_multi_core_interleaved_program_factory.cpp
    as a ProgramSpec): tile rows (blocks) split over a one-row sub-grid by split_blocks_for_tilize, the
    last core a cliff with fewer; every kernel Metal 2.0 (the multicore split-rows reader,
    kernel/compute/tilize_metal2.cpp per core group with its block counts as named compile-time args,
    eltwise's metal2 writer), bound through ditmk.ttnn.experimental."""
    values = _values((7 * 32, 64), 6)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    nblocks, ntiles_per_block, row_bytes = values.shape[0] // 32, values.shape[1] // 32, values.shape[1] * 2
    grid = [ttnn.CoreCoord(x, 0) for x in range(4)]
    full, cliff, per_core, per_cliff = _split_blocks_for_tilize(grid, nblocks)
    assert (len(full), len(cliff), per_core, per_cliff) == (3, 1, 2, 1)
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    tile_start, page_start = 0, 0
    for core in full + cliff:
        blocks = per_core if core in full else per_cliff
        # num_rows, num_tiles_per_block, block_width_size, num_full_blocks_in_row, start_page_id
        reader_args[core.x][core.y] = [blocks * 32, ntiles_per_block, row_bytes, 1, page_start]
        writer_args[core.x][core.y] = [ntiles_per_block * blocks, tile_start]  # num_pages, start_id
        tile_start += ntiles_per_block * blocks
        page_start += 32 * blocks
    all_cores = _core_set(full + cliff)
    reader = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=TILIZE + "dataflow/reader_unary_stick_layout_split_rows_multicore.cpp",
                              core_ranges=all_cores,
                              named_compile_time_args=[("tile_height", 32), ("num_pages_in_row", 1),
                                                       ("size_of_valid_data_in_last_page_in_row", row_bytes)],
                              runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor()),
        experimental.Metal2Bindings(named_runtime_args=["num_rows", "num_tiles_per_block", "block_width_size",
                                                        "num_full_blocks_in_row", "start_page_id"],
                                    dataflow_buffers={"in": 0}, tensors=[("src", src)]))  # fmt: skip
    writer = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=METAL2_WRITER, core_ranges=all_cores, runtime_args=writer_args,
                              config=ttnn.WriterConfigDescriptor()),
        experimental.Metal2Bindings(named_runtime_args=["num_pages", "start_id"], dataflow_buffers={"out": 16},
                                    tensors=[("dst", dst)]))  # fmt: skip
    kernels = [reader, writer]
    for cores, blocks in ((full, per_core), (cliff, per_cliff)):
        if cores:
            kernels.append(experimental.bind(
                ttnn.KernelDescriptor(kernel_source="ttnn/cpp/ttnn/kernel/compute/tilize_metal2.cpp",
                                      core_ranges=_core_set(cores),
                                      named_compile_time_args=[("per_core_block_cnt", blocks),
                                                               ("per_core_block_tile_cnt", ntiles_per_block)],
                                      config=ttnn.ComputeConfigDescriptor()),
                experimental.Metal2Bindings(dataflow_buffers={"in": 0, "out": 16})))  # fmt: skip
    cbs = [_cb(0, ttnn.bfloat16, 2048, ntiles_per_block, all_cores),
           _cb(16, ttnn.bfloat16, 2048, ntiles_per_block, all_cores)]  # fmt: skip
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


def test_untilize_multi_core(device):
    """The Metal 2.0 multi-core interleaved untilize: tile rows (blocks) split over a one-row sub-grid
    (split_blocks_for_tilize, a cliff core last); every kernel Metal 2.0, bound through
    ditmk.ttnn.experimental: reader_unary_start_id_metal2.cpp (args::num_tiles, start_id; dfb::in,
    tensor::src), untilize_variable_num_blocks_metal2.cpp over every core (its block count a named
    runtime arg, dfb::src and dfb::out on the same CBs as the reader's and writer's), and the multi-core
    split-rows writer (its layout as named compile-time args, its block range as runtime args)."""
    values = _values((5 * 32, 96), 7)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    nblocks, wt, width = values.shape[0] // 32, values.shape[1] // 32, values.shape[1]
    full, cliff, per_core, per_cliff = _split_blocks_for_tilize([ttnn.CoreCoord(x, 0) for x in range(4)], nblocks)
    assert (len(full), len(cliff), per_core, per_cliff) == (2, 1, 2, 1)
    reader_args, compute_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    block = 0
    for core in full + cliff:
        blocks = per_core if core in full else per_cliff
        reader_args[core.x][core.y] = [blocks * wt, block * wt]  # num_tiles, start_id
        compute_args[core.x][core.y] = [blocks]  # per_core_block_cnt
        # num_input_blocks_to_process, height_wise_input_block_start_index, num_unpadded_cols_per_input_block,
        # width_wise_output_block_start_index, num_cols_already_processed_in_first_output_block
        writer_args[core.x][core.y] = [blocks, block, width, 0, 0]
        block += blocks
    all_cores = _core_set(full + cliff)
    reader = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=UNTILIZE + "dataflow/reader_unary_start_id_metal2.cpp",
                              core_ranges=all_cores, runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor()),
        experimental.Metal2Bindings(named_runtime_args=["num_tiles", "start_id"], dataflow_buffers={"in": 0},
                                    tensors=[("src", src)]))  # fmt: skip
    compute = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=UNTILIZE + "compute/untilize_variable_num_blocks_metal2.cpp",
                              core_ranges=all_cores, named_compile_time_args=[("per_core_block_tile_cnt", wt)],
                              runtime_args=compute_args, config=ttnn.ComputeConfigDescriptor()),
        experimental.Metal2Bindings(named_runtime_args=["per_core_block_cnt"],
                                    dataflow_buffers={"src": 0, "out": 16}))  # fmt: skip
    writer = experimental.bind(
        ttnn.KernelDescriptor(
            kernel_source=UNTILIZE + "dataflow/writer_unary_stick_layout_split_rows_multi_core.cpp",
            core_ranges=all_cores,
            named_compile_time_args=[("tile_height", 32), ("num_tiles_per_input_block", wt),
                                     ("num_output_blocks_across_width", 1), ("output_element_size", 2),
                                     ("num_cols_per_input_block", width), ("num_cols_per_output_block", width)],
            runtime_args=writer_args, config=ttnn.WriterConfigDescriptor()),
        experimental.Metal2Bindings(
            named_runtime_args=["num_input_blocks_to_process", "height_wise_input_block_start_index",
                                "num_unpadded_cols_per_input_block", "width_wise_output_block_start_index",
                                "num_cols_already_processed_in_first_output_block"],
            dataflow_buffers={"out": 16}, tensors=[("dst", dst)]))  # fmt: skip
    cbs = [_cb(0, ttnn.bfloat16, 2048, wt, all_cores), _cb(16, ttnn.bfloat16, 2048, wt, all_cores)]
    ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=[reader, compute, writer], semaphores=[], cbs=cbs))
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))


def _concat_tiles(device, inputs, dim):
    """ConcatDeviceOperation's interleaved program as its ProgramSpec builds it
    (concat_program_factory.cpp), tile layout: output pages split over the whole grid by
    split_work_to_cores and walked column by column; each core reads its pages round-robin over the
    inputs' blocks with reader_concat_interleaved_start_id.cpp (tensor::in0.., the sequence
    tensor::inputs, args::num_tiles / start_tensor / start_tensor_id and the varargs
    num_pages_per_block[N], page_id_per_tensor[N]) into one DFB that eltwise's metal2 writer drains."""
    shapes = [t.shape for t in inputs]
    out_shape = list(shapes[0])
    out_shape[dim] = sum(sh[dim] for sh in shapes)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(out_shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    num_dims = len(out_shape)
    scale = 32 if dim >= num_dims - 2 else 1
    accum = 1
    for d in range(dim + 1, num_dims):
        accum *= out_shape[d]
    accum //= 1024 if dim < num_dims - 2 else (32 if dim == num_dims - 2 else 1)
    per_block = [accum * (sh[dim] // scale) for sh in shapes]
    out_per_block = sum(per_block)
    num_pages = (out_shape[-2] // 32) * (out_shape[-1] // 32)
    grid = device.compute_with_storage_grid_size()
    num_cores, all_cores, group_1, _, per_1, per_2 = ttnn.split_work_to_cores(grid, num_pages)
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    written = 0
    for i, core in enumerate(_grid_to_cores(num_cores, grid.x, grid.y)):
        pages = per_1 if i < group_1.num_cores() else per_2
        block, within = divmod(written, out_per_block)
        start_tensor, start_id, page_ids = 0, 0, []
        for j, n in enumerate(per_block):
            page_id = block * n
            if within:
                if within >= n:
                    page_id += n
                    within -= n
                    start_tensor = j + 1
                else:
                    page_id += within
                    start_tensor, start_id, within = j, within, 0
            page_ids.append(page_id)
        reader_args[core.x][core.y] = [pages, start_tensor, start_id] + per_block + page_ids
        writer_args[core.x][core.y] = [pages, written]
        written += pages
    names = [f"in{i}" for i in range(len(inputs))]
    reader = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=CONCAT + "dataflow/reader_concat_interleaved_start_id.cpp",
                              core_ranges=all_cores, runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor()),
        experimental.Metal2Bindings(named_runtime_args=["num_tiles", "start_tensor", "start_tensor_id"],
                                    dataflow_buffers={"in": 0}, tensors=list(zip(names, inputs)),
                                    tensor_sequences={"inputs": names}))  # fmt: skip
    writer = experimental.bind(
        ttnn.KernelDescriptor(kernel_source=METAL2_WRITER, core_ranges=all_cores, runtime_args=writer_args,
                              config=ttnn.WriterConfigDescriptor()),
        experimental.Metal2Bindings(named_runtime_args=["num_pages", "start_id"], dataflow_buffers={"out": 0},
                                    tensors=[("dst", dst)]))  # fmt: skip
    cbs = [_cb(0, ttnn.bfloat16, 2048, 2, all_cores)]
    return ttnn.generic_op(inputs + [dst], ttnn.ProgramDescriptor(kernels=[reader, writer], semaphores=[], cbs=cbs))


@pytest.mark.parametrize("dim, shapes", [(1, [(64, 64), (64, 96)]), (0, [(64, 64), (32, 64), (96, 64)])],
                         ids=["width", "height_three"])
def test_concat_tiles(device, dim, shapes):
    values = [_values(shape, 8 + i) for i, shape in enumerate(shapes)]
    inputs = [ttnn.from_torch(v, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                              memory_config=ttnn.DRAM_MEMORY_CONFIG) for v in values]  # fmt: skip
    out = _concat_tiles(device, inputs, dim)
    want = np.concatenate([ttnn.to_numpy(t) for t in inputs], axis=dim)
    np.testing.assert_array_equal(ttnn.to_numpy(out), want)
