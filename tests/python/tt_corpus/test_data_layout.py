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
    """CopyDeviceOperation::SameMemoryConfig::create_descriptor (copy_same_memory_config_program_factory.cpp):
    the units (tiles, or rows) split over the whole grid by split_work_to_cores and walked column by
    column (grid_to_cores), two units of CB c_0 per core (c_16 too when converting). Rows of a
    sharded tensor go through copy's own stick kernels, a unit being one shard-wide piece of a row
    (the row's `num_shards` pieces are pages of their own). 0.81.1's stick kernels read
    TensorAccessorArgs from compile-time arg 2 whatever the tensor's layout and no SHARDED define,
    where the stored factory sources give sharded tensors ShardedAddrGen args: they are given what
    they read, TensorAccessorArgs."""
    device = src.device()
    grid = device.compute_with_storage_grid_size()
    sharded = src.memory_config().is_sharded()
    num_cores, all_cores, group_1, group_2, per_core_1, per_core_2 = ttnn.split_work_to_cores(grid, num_units)
    in_cb, out_cb = 0, 16 if convert_dtype else 0
    alignment = 16 if sharded else 64  # the source buffer's alignment: L1 or DRAM
    in_page = unit_size[0] if tilized else -(-unit_size[0] // alignment) * alignment
    cbs = [_cb(in_cb, src.dtype, in_page, 2, all_cores)]
    if convert_dtype:
        cbs.append(_cb(out_cb, dst.dtype, unit_size[1], 2, all_cores))
    full_row = (src.shape[-1] * unit_size[0] // src.memory_config().shard_spec.shape[1]) if sharded else unit_size[0]
    num_shards = full_row // unit_size[0]
    if tilized:
        reader_ct = ttnn.TensorAccessorArgs(src).get_compile_time_args()
        writer_ct = [out_cb] + ttnn.TensorAccessorArgs(dst).get_compile_time_args()
        reader_src, writer_src = COPY + "reader_unary_start_id.cpp", COPY + "writer_unary_start_id.cpp"
    else:
        reader_ct = [in_cb, unit_size[0]] + ttnn.TensorAccessorArgs(src).get_compile_time_args()
        writer_ct = [out_cb, unit_size[1]] + ttnn.TensorAccessorArgs(dst).get_compile_time_args()
        if sharded:
            reader_src, writer_src = COPY + "reader_unary_stick_start_id.cpp", COPY + "writer_unary_stick_start_id.cpp"
        else:
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
            reader_args[core.x][core.y] = [src.buffer_address(), unit_size[0], n, start, num_shards]
            writer_args[core.x][core.y] = [dst.buffer_address(), unit_size[1], n, start, num_shards]
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


def _height_sharded(shard_rows, width, num_cores):
    """L1 HEIGHT_SHARDED over the first `num_cores` cores of row 0, shards of `shard_rows` full rows."""
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(num_cores - 1, 0))])
    spec = ttnn.ShardSpec(grid, [shard_rows, width], ttnn.ShardOrientation.ROW_MAJOR)
    return ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, spec)


@pytest.mark.parametrize("backwards", [False, True], ids=["forward", "backwards"])
def test_copy_rows_height_sharded(device, backwards):
    """copy of a row-major bf16 tensor height-sharded over 4 cores (32 rows of 96 B each), into a tensor
    of the same memory config: copy's stick kernels over the whole grid, each core reading its rows
    from the shard cores and writing them into the output's shards through the sharded accessor."""
    values = _values((128, 48), 6)
    config = _height_sharded(32, 48, 4)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=config)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         config)
    row = 48 * 2
    program = _copy_program(src, dst, False, backwards, (row, row), values.shape[0], False)
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


# ---- concat ----

CONCAT = "ttnn/cpp/ttnn/operations/data_movement/concat/device/kernels/"


def _tilize_bands(grid, nblocks):
    """split_blocks_for_tilize over a whole grid, walked row by row: the cores in the order the factory
    walks them and each one's block count (the cliff core last)."""
    cores = [ttnn.CoreCoord(i % grid.x, i // grid.x) for i in range(grid.x * grid.y)]
    full, cliff, per_core, per_cliff = _split_blocks_for_tilize(cores, nblocks)
    return full + cliff, [per_core] * len(full) + [per_cliff] * len(cliff)


def _concat_tiled_unaligned_program(inputs, logical_widths, output, fp32):
    """ConcatTiledUnalignedProgramFactory::create_descriptor (concat_tiled_unaligned_program_factory.cpp):
    a width concat of TILE tensors whose logical widths are not whole tiles. Each core takes bands of
    32 rows (split_blocks_for_tilize): the reader brings each input's tile row into c_0, the compute
    kernel untilizes them into c_1, the writer assembles the logical rows side by side in c_2 with
    the output's width padding zeroed, the compute kernel tilizes c_2 into c_16 and the writer ships
    those tiles. ditmk's tensors have no padding of their own: each input is its padded shape, and
    its logical width (what the factory reads from logical_shape) is given beside it."""
    device = output.device()
    elem = 4 if fp32 else 2
    tile_bytes = 32 * 32 * elem
    in_wt = [t.shape[-1] // 32 for t in inputs]
    in_w_bytes = [w * elem for w in logical_widths]
    total_in_wt = sum(in_wt)
    out_wt = -(-sum(logical_widths) // 32)
    assert output.shape[-1] == out_wt * 32
    num_bands = int(np.prod(inputs[0].shape[:-1])) // 32
    tile_row_bytes, out_row_bytes = 32 * elem, out_wt * 32 * elem
    tail_bytes = out_row_bytes - sum(in_w_bytes)
    cores, bands = _tilize_bands(device.compute_with_storage_grid_size(), num_bands)
    all_cores = ttnn.CoreRangeSet([ttnn.CoreRange(c, c) for c in cores])
    cb_in, cb_rm, cb_asm, cb_out = 0, 1, 2, 16
    dtype = inputs[0].dtype
    cbs = [_cb(cb_in, dtype, tile_bytes, 2 * total_in_wt, all_cores), _cb(cb_rm, dtype, tile_bytes, total_in_wt, all_cores),
           _cb(cb_asm, dtype, tile_bytes, out_wt, all_cores), _cb(cb_out, dtype, tile_bytes, 2 * out_wt, all_cores)]
    reader_ct = [cb_in, len(inputs)]
    for t in inputs:
        reader_ct += ttnn.TensorAccessorArgs(t).get_compile_time_args()
    writer_ct = [cb_rm, cb_asm, cb_out, len(inputs), out_wt, total_in_wt, tile_row_bytes, out_row_bytes, tail_bytes]
    writer_ct += ttnn.TensorAccessorArgs(output).get_compile_time_args()
    reader_args, writer_args, compute_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    band_start = 0
    for core, n in zip(cores, bands):
        reader_args[core.x][core.y] = [n, band_start] + [t.buffer_address() for t in inputs] + in_wt
        writer_args[core.x][core.y] = [output.buffer_address(), n, band_start] + in_wt + in_w_bytes
        compute_args[core.x][core.y] = [n]
        band_start += n
    unpack_to_dest = [ttnn.UnpackToDestMode.Default] * 32
    if fp32:
        unpack_to_dest[cb_in] = unpack_to_dest[cb_asm] = ttnn.UnpackToDestMode.UnpackToDestFp32
    kernels = [
        ttnn.KernelDescriptor(kernel_source=CONCAT + "dataflow/reader_concat_tiled_unaligned.cpp", core_ranges=all_cores,
                              compile_time_args=reader_ct, runtime_args=reader_args,
                              config=ttnn.ReaderConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=CONCAT + "dataflow/writer_concat_tiled_unaligned.cpp", core_ranges=all_cores,
                              compile_time_args=writer_ct, runtime_args=writer_args,
                              config=ttnn.WriterConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=CONCAT + "compute/concat_untilize_retilize.cpp", core_ranges=all_cores,
                              compile_time_args=[cb_in, cb_rm, cb_asm, cb_out, total_in_wt, out_wt, int(fp32)],
                              runtime_args=compute_args,
                              config=ttnn.ComputeConfigDescriptor(fp32_dest_acc_en=fp32,
                                                                  unpack_to_dest_mode=unpack_to_dest)),
    ]
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


@pytest.mark.parametrize("dtype", [ttnn.bfloat16, ttnn.float32], ids=["bf16", "fp32"])
def test_concat_tiled_unaligned(device, dtype):
    """ttnn.concat on the last dim of two TILE tensors of logical widths 40 and 50 (padded to 64 each):
    4 bands over 4 cores; the output is the 90 logical columns then 6 zero columns of padding, and
    whatever the inputs hold in their own padding is dropped."""
    widths = (40, 50)
    values = [_values((2, 64, 64), 7 + i) for i in range(2)]
    inputs = [ttnn.from_torch(v, dtype=dtype, layout=ttnn.TILE_LAYOUT, device=device,
                              memory_config=ttnn.DRAM_MEMORY_CONFIG) for v in values]
    output = ttnn.allocate_tensor_on_device(ttnn.Shape((2, 64, 96)), dtype, ttnn.TILE_LAYOUT, device,
                                            ttnn.DRAM_MEMORY_CONFIG)
    fp32 = dtype == ttnn.float32
    ttnn.generic_op(inputs + [output], _concat_tiled_unaligned_program(inputs, widths, output, fp32))
    stored = [ttnn.to_numpy(t) for t in inputs]
    expected = np.zeros((2, 64, 96), dtype=np.float32)
    expected[..., :40] = stored[0][..., :40]
    expected[..., 40:90] = stored[1][..., :50]
    np.testing.assert_array_equal(ttnn.to_numpy(output), expected)


# ---- untilize codegen ----

CODEGEN = "ttnn/cpp/ttnn/operations/data_movement/untilize/codegen/kernels/"


def _block_ct_dim(tiles, max_bct=8):
    """untilize_codegen_cb_plan.cpp's compute_block_ct_dim: the largest divisor of `tiles` up to 8
    (bf16; 4 for 32-bit data)."""
    return next(b for b in range(max_bct, 0, -1) if tiles % b == 0)


def _cores_of(ranges, row_wise=True):
    """corerange_to_cores(ranges, nullopt, row_wise): range by range, each walked row by row."""
    cores = []
    for r in ranges.ranges():
        xs, ys = range(r.start.x, r.end.x + 1), range(r.start.y, r.end.y + 1)
        cores += [ttnn.CoreCoord(x, y) for y in ys for x in xs] if row_wise else [ttnn.CoreCoord(x, y) for x in xs for y in ys]
    return cores


def _untilize_codegen_program(src, dst, logical_hw=None):
    """UntilizeCodegenProgramFactory::create_descriptor (untilize_codegen_program_factory.cpp) for a bf16
    DRAM-interleaved TILE tensor, with the CB plan its chooser picks when L1 is free (DoubleBoth: two
    units of pages in c_0 and in c_16, reads batched a unit at a time). The builder follows the
    factory's dispatch: a non-tile-aligned logical shape (`logical_hw`, since ditmk's tensors carry
    no padding of their own) takes build_with_unpadding; one tile row of several tiles the
    column-parallel split; several tile rows of several tiles the 2-D (tile row x column block)
    split when fewer rows than cores; else the split by tile rows. Kernels in the factory's order:
    reader, writer, compute (one per core group)."""
    grid = src.device().compute_with_storage_grid_size()
    valid_cores = grid.x * grid.y
    h, w = src.shape[-2], src.shape[-1]
    wt = w // 32
    total_tile_rows = int(np.prod(src.shape[:-2])) * (h // 32)
    tile = 2048
    row_bytes = wt * 32 * 2
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    computes = []  # (cores, per-core tile rows, tiles per tile row)

    def ncol_2d():
        if total_tile_rows >= valid_cores or wt < 2:
            return 1
        return max([d for d in range(1, min(valid_cores // total_tile_rows, wt) + 1) if wt % d == 0])

    if logical_hw is None and total_tile_rows == 1 and wt > 1:
        kind = "column_parallel"
        _, cores_set, g1, g2, tpc1, tpc2 = ttnn.split_work_to_cores(grid, wt, row_wise=True)
        pages = max(tpc1, tpc2 if g2.num_cores() else 0)
        writer_src, writer_ct = "writer_untilize_col_parallel.cpp", [16, row_bytes]
        assigned = 0
        for group, per in ((g1, tpc1), (g2, tpc2)):
            for core in _cores_of(group):
                n = min(per, wt - assigned)
                reader_args[core.x][core.y] = [src.buffer_address(), n, assigned]
                writer_args[core.x][core.y] = [dst.buffer_address(), 32, assigned * 64, n * 64, n, 0]
                assigned += n
            if group.num_cores():
                computes.append((group, 1, per))
    elif logical_hw is None and wt > 1 and ncol_2d() >= 2:
        kind, ncol = "2d", ncol_2d()
        tpc = wt // ncol
        _, cores_set, _, _, _, _ = ttnn.split_work_to_cores(grid, total_tile_rows * ncol, row_wise=True)
        pages = tpc
        writer_src, writer_ct = "writer_untilize_col_parallel.cpp", [16, row_bytes]
        for i, core in enumerate(_cores_of(cores_set)):
            tile_row, col_block = i // ncol, i % ncol
            reader_args[core.x][core.y] = [src.buffer_address(), tpc, tile_row * wt + col_block * tpc]
            writer_args[core.x][core.y] = [dst.buffer_address(), 32, col_block * tpc * 64, tpc * 64, tpc,
                                           tile_row * 32]
        computes.append((cores_set, 1, tpc))
    else:
        kind = "unpadding" if logical_hw else "tile_rows"
        _, cores_set, g1, g2, tpc1, tpc2 = ttnn.split_work_to_cores(grid, total_tile_rows, row_wise=True)
        pages = wt
        h_valid, w_valid = logical_hw if logical_hw else (0, w)
        writer_src = "writer_untilize_interleaved.cpp"
        writer_ct = [16, w_valid * 2]
        assigned = out_page = 0
        for group, per in ((g1, tpc1), (g2, tpc2)):
            for core in _cores_of(group):
                n = min(per, total_tile_rows - assigned)
                start_stick = assigned * 32
                reader_args[core.x][core.y] = [src.buffer_address(), n * wt, assigned * wt]
                if logical_hw:
                    writer_args[core.x][core.y] = [dst.buffer_address(), n, start_stick, row_bytes, h_valid, h,
                                                   out_page]
                    out_page += sum(1 for r in range(start_stick, start_stick + n * 32) if r % h < h_valid)
                else:
                    writer_args[core.x][core.y] = [dst.buffer_address(), n, start_stick, row_bytes, 0, 0, 0]
                assigned += n
            if group.num_cores():
                computes.append((group, per, wt))
    writer_ct = writer_ct + ttnn.TensorAccessorArgs(dst).get_compile_time_args()
    if writer_src == "writer_untilize_interleaved.cpp":
        writer_ct.append(wt)
    cbs = [_cb(0, ttnn.bfloat16, tile, 2 * pages, cores_set), _cb(16, ttnn.bfloat16, tile, 2 * pages, cores_set)]
    named = [("seq_id", 0), ("cb_id", 0), ("batch", pages), ("src_page_pitch", 0)]
    kernels = [
        ttnn.KernelDescriptor(kernel_source=CODEGEN + "reader_tile_interleaved_unified.cpp", core_ranges=cores_set,
                              compile_time_args=ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                              named_compile_time_args=named, runtime_args=reader_args,
                              config=ttnn.ReaderConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=CODEGEN + writer_src, core_ranges=cores_set, compile_time_args=writer_ct,
                              runtime_args=writer_args, config=ttnn.WriterConfigDescriptor()),
    ]
    for group, blocks, tiles in computes:
        kernels.append(ttnn.KernelDescriptor(kernel_source=CODEGEN + "compute_untilize.cpp", core_ranges=group,
                                             compile_time_args=[blocks, tiles, 0, 16, 8],
                                             config=ttnn.ComputeConfigDescriptor()))
    return kind, ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


@pytest.mark.parametrize("shape, kind", [((4, 32, 32), "tile_rows"), ((1, 32, 256), "column_parallel"),
                                         ((2, 32, 128), "2d")], ids=["tile_rows", "column_parallel", "2d"])
def test_untilize_codegen(device, shape, kind):
    """ttnn.untilize through its codegen factory, each of the three splits of a tile-aligned tensor:
    4 tile rows of 1 tile over 4 cores (writer_untilize_interleaved.cpp), 1 tile row of 8 tiles over
    8 cores and 2 tile rows of 4 tiles over 8 cores as (row, column block) pairs
    (writer_untilize_col_parallel.cpp). bf16, exact."""
    values = _values(shape, 11)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    built, program = _untilize_codegen_program(src, dst)
    assert built == kind
    ttnn.generic_op([src, dst], program)
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))


def test_untilize_codegen_with_unpadding(device):
    """untilize_with_unpadding through the codegen factory: a TILE tensor of padded shape (2, 64, 64)
    holding logical (2, 50, 40) comes out row-major and compact, (2, 50, 40): the writer skips the 14
    padding rows of each batch and writes 80 of each row's 128 bytes."""
    values = _values((2, 64, 64), 12)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape((2, 50, 40)), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)
    built, program = _untilize_codegen_program(src, dst, logical_hw=(50, 40))
    assert built == "unpadding"
    ttnn.generic_op([src, dst], program)
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src)[:, :50, :40])


def _concat_s2s_program(inputs, output, page_size):
    """ConcatS2SMultiProgramFactory::create_descriptor (concat_s2s_multi_program_factory.cpp), a width
    concat of row-major tensors sharded alike: every input and the output back a CB on the shard
    cores (c_i for input i, c_16 for the output, pages of the sticks' greatest common size), and
    reader_s2s_tensor_concat.cpp runs on both data-movement processors, each copying half of every
    input's sticks from its CB into place in the output's. 0.81.1's kernel also walks leading blocks
    (compile-time args 4 to 6, runtime args read_offset and block_stride per input), which the stored
    factory sources predate: a 2-D tensor is one block, given to both processors whole (the
    stick-split form the kernel's comment describes), each processor's half then starting
    `read_offset` into the input's shard."""
    shard_rows = inputs[0].memory_config().shard_spec.shape[0]
    elem = 2
    pages_per_stick = [t.shape[-1] * elem // page_size for t in inputs]
    out_pages_per_stick = output.shape[-1] * elem // page_size
    output_stride = page_size * out_pages_per_stick
    cores = inputs[0].memory_config().shard_spec.grid
    cbs = [ttnn.CBDescriptor(total_size=page_size * pages_per_stick[i] * shard_rows, core_ranges=cores,
                             format_descriptors=[ttnn.CBFormatDescriptor(i, t.dtype, page_size)], buffer=t)
           for i, t in enumerate(inputs)]
    cbs.append(ttnn.CBDescriptor(total_size=output_stride * shard_rows, core_ranges=cores,
                                 format_descriptors=[ttnn.CBFormatDescriptor(16, output.dtype, page_size)],
                                 buffer=output))
    first_half = -(-shard_rows // 2)
    args_0, args_1 = [], []
    write_offset = 0
    for pages in pages_per_stick:
        block_stride = page_size * pages * shard_rows
        args_0 += [pages, first_half, write_offset, 0, block_stride]
        args_1 += [pages, shard_rows - first_half, write_offset + output_stride * first_half,
                   page_size * pages * first_half, block_stride]
        write_offset += page_size * pages
    compile_time = [16, page_size, output_stride, len(inputs), output_stride * shard_rows, 0, 1]
    kernels = []
    for args, config in ((args_0, ttnn.ReaderConfigDescriptor()), (args_1, ttnn.WriterConfigDescriptor())):
        runtime = ttnn.RuntimeArgs()
        for core in cores.cores():
            runtime[core.x][core.y] = args
        kernels.append(ttnn.KernelDescriptor(kernel_source=CONCAT + "dataflow/reader_s2s_tensor_concat.cpp",
                                             core_ranges=cores, compile_time_args=compile_time,
                                             runtime_args=runtime, config=config))
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


def test_concat_sharded_rows(device):
    """ttnn.concat on the last dim of two row-major bf16 tensors (128 x 32 and 128 x 96), each
    height-sharded over 4 cores, into a 128 x 128 tensor sharded alike: every core builds its own
    output shard from its input shards in L1, 16 rows per processor."""
    values = [_values((128, 32), 13), _values((128, 96), 14)]
    inputs = [ttnn.from_torch(v, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                              memory_config=_height_sharded(32, v.shape[1], 4)) for v in values]
    output = ttnn.allocate_tensor_on_device(ttnn.Shape((128, 128)), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                            _height_sharded(32, 128, 4))
    # find_greatest_common_page_size: the gcd of the sticks' sizes aligned to L1's 16 B (the stored
    # factory gives the output's in elements, 128, the inputs' in bytes, 64 and 192: 64 either way)
    page_size = 64
    ttnn.generic_op(inputs + [output], _concat_s2s_program(inputs, output, page_size))
    np.testing.assert_array_equal(ttnn.to_numpy(output), np.concatenate([ttnn.to_numpy(t) for t in inputs], axis=-1))


def _concat_block_sharded_program(inputs, output, width_concat):
    """ConcatBlockShardedProgramFactory::create_descriptor (concat_block_sharded_program_factory.cpp) for
    row-major tensors: each output shard is assembled by NoC reads of row runs out of the input
    shards' CBs (c_i, on whichever core holds them), the core's transfers split between its two
    data-movement processors, both running reader_writer_block_sharded_concat.cpp."""
    spec = inputs[0].memory_config().shard_spec
    (grid,) = spec.grid.ranges()
    grid_cols, grid_rows = grid.end.x - grid.start.x + 1, grid.end.y - grid.start.y + 1
    elem = 2
    in_h = [t.memory_config().shard_spec.shape[0] for t in inputs]
    in_w = [t.memory_config().shard_spec.shape[1] for t in inputs]
    out_h, out_w = output.memory_config().shard_spec.shape
    dst_stride = out_w * elem
    cbs = [ttnn.CBDescriptor(total_size=elem * in_h[i] * in_w[i], core_ranges=spec.grid,
                             format_descriptors=[ttnn.CBFormatDescriptor(i, t.dtype, elem)], buffer=t)
           for i, t in enumerate(inputs)]
    cbs.append(ttnn.CBDescriptor(total_size=elem * out_h * out_w, core_ranges=spec.grid,
                                 format_descriptors=[ttnn.CBFormatDescriptor(16, output.dtype, elem)], buffer=output))
    device = output.device()

    def shard_core(shard_row, shard_col):
        return device.worker_core_from_logical_core(ttnn.CoreCoord(grid.start.x + shard_col, grid.start.y + shard_row))

    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for gy in range(grid_rows):
        for gx in range(grid_cols):
            transfers = []  # (src core, cb, src offset, src stride, dst offset, dst stride, bytes, rows)
            if width_concat:
                out_col_start, cum_w = gx * out_w, 0
                for i in range(len(inputs)):
                    start, end = max(out_col_start, cum_w), min(out_col_start + out_w, cum_w + in_w[i] * grid_cols)
                    if start < end:
                        local_start, local_end = start - cum_w, end - cum_w
                        for src_c in range(local_start // in_w[i], (local_end - 1) // in_w[i] + 1):
                            first = max(local_start, src_c * in_w[i])
                            cols = min(local_end, (src_c + 1) * in_w[i]) - first
                            transfers.append((shard_core(gy, src_c), i, (first - src_c * in_w[i]) * elem,
                                              in_w[i] * elem, (cum_w + first - out_col_start) * elem, dst_stride,
                                              cols * elem, out_h))
                    cum_w += in_w[i] * grid_cols
            else:
                out_row_start, cum_h, dst_rows = gy * out_h, 0, 0
                for i in range(len(inputs)):
                    start, end = max(out_row_start, cum_h), min(out_row_start + out_h, cum_h + in_h[i] * grid_rows)
                    if start < end:
                        local_start, local_end = start - cum_h, end - cum_h
                        for src_r in range(local_start // in_h[i], (local_end - 1) // in_h[i] + 1):
                            first = max(local_start, src_r * in_h[i])
                            rows = min(local_end, (src_r + 1) * in_h[i]) - first
                            transfers.append((shard_core(src_r, gx), i, (first - src_r * in_h[i]) * in_w[i] * elem,
                                              in_w[i] * elem, dst_rows * dst_stride, dst_stride, out_w * elem, rows))
                            dst_rows += rows
                    cum_h += in_h[i] * grid_rows
            half = -(-len(transfers) // 2)

            def flat(part):
                return [len(part)] + [v for (core, *rest) in part for v in (core.x, core.y, *rest)]

            core = ttnn.CoreCoord(grid.start.x + gx, grid.start.y + gy)
            reader_args[core.x][core.y] = flat(transfers[:half])
            writer_args[core.x][core.y] = flat(transfers[half:])
    kernels = [ttnn.KernelDescriptor(kernel_source=CONCAT + "dataflow/reader_writer_block_sharded_concat.cpp",
                                     core_ranges=spec.grid, compile_time_args=[16], runtime_args=args, config=config)
               for args, config in ((reader_args, ttnn.ReaderConfigDescriptor()),
                                    (writer_args, ttnn.WriterConfigDescriptor()))]
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


def _one_column_sharded(shard_rows, width, num_cores):
    """Shards of full rows on the cores (0, 0) .. (0, num_cores - 1): the bytes block sharding puts on a
    one-column grid, which ditmk.ttnn expresses as HEIGHT_SHARDED (it refuses BLOCK_SHARDED)."""
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, num_cores - 1))])
    spec = ttnn.ShardSpec(grid, [shard_rows, width], ttnn.ShardOrientation.ROW_MAJOR)
    return ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, spec)


@pytest.mark.parametrize("width_concat", [True, False], ids=["width", "height"])
def test_concat_block_sharded_rows(device, width_concat):
    """ttnn.concat of two row-major bf16 tensors sharded on a one-column grid of 4 cores (block
    sharding's layout there; the factory reads only the shard grid and shapes): on the last dim
    (128 x 32 and 128 x 16 -> 128 x 48, every read local), and on the rows (128 x 32 twice -> 256 x 32,
    each output shard read from two input shards on other cores)."""
    if width_concat:
        shapes, out_shape = [(128, 32), (128, 16)], (128, 48)
    else:
        shapes, out_shape = [(128, 32), (128, 32)], (256, 32)
    values = [_values(s, 15 + i) for i, s in enumerate(shapes)]
    inputs = [ttnn.from_torch(v, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                              memory_config=_one_column_sharded(32, v.shape[1], 4)) for v in values]
    output = ttnn.allocate_tensor_on_device(ttnn.Shape(out_shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                            _one_column_sharded(out_shape[0] // 4, out_shape[1], 4))
    ttnn.generic_op(inputs + [output], _concat_block_sharded_program(inputs, output, width_concat))
    expected = np.concatenate([ttnn.to_numpy(t) for t in inputs], axis=-1 if width_concat else 0)
    np.testing.assert_array_equal(ttnn.to_numpy(output), expected)


# ---- sharded to interleaved ----

SHARDED = "ttnn/cpp/ttnn/operations/data_movement/sharded/device/kernels/"


def _sharded_to_interleaved_program(src, dst):
    """sharded_to_interleaved_multi_core (sharded_to_interleaved_program_factory.cpp), a height-sharded
    tensor of one dtype: the input's shard backs c_0 on each shard core, reader_unary_sharded.cpp only
    publishes its pages, and the writer puts them at their place in the interleaved output: tiles by
    tile id (block of shard rows x shard columns in tiles), or rows by stick id, `curr_idx_w` bytes into
    the row. The shards are walked in the grid's row-major order (ROW_MAJOR orientation)."""
    spec = src.memory_config().shard_spec
    shard_h, shard_w = spec.shape
    tiled = src.layout == ttnn.TILE_LAYOUT
    cores = _cores_of(spec.grid)
    rows = int(np.prod(src.shape[:-1]))
    if tiled:
        unit, units_h, units_w = 2048, shard_h // 32, shard_w // 32
        units_per_row = dst.shape[-1] // 32
        height_units = rows // 32
    else:
        unit, units_h, units_w = shard_w * 2, shard_h, 1
        units_per_row = dst.shape[-1] * 2  # in bytes, for row-major
        height_units = rows
    per_shard = units_h * units_w
    used = -(-height_units // units_h)
    last_h = units_h - (-(-height_units // units_h) * units_h - height_units)
    page = -(-unit // 16) * 16
    cbs = [ttnn.CBDescriptor(total_size=per_shard * page, core_ranges=spec.grid,
                             format_descriptors=[ttnn.CBFormatDescriptor(0, src.dtype, page)], buffer=src)]
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    idx_h = idx_w = 0
    for i, core in enumerate(cores):
        reader_args[core.x][core.y] = [per_shard]
        height = last_h if i == used - 1 else units_h
        if tiled:
            writer_args[core.x][core.y] = [dst.buffer_address(), units_h, units_w, height, units_w, units_per_row,
                                           per_shard, idx_h + idx_w, 0]
            idx_w += units_w
            if idx_w >= units_per_row:
                idx_w, idx_h = 0, idx_h + units_per_row * units_h
        else:
            # Blackhole: the CB's rows are the shard's width apart (no padding to an alignment)
            writer_args[core.x][core.y] = [dst.buffer_address(), units_per_row, height, unit, unit, idx_w, idx_h]
            idx_w += unit
            if idx_w >= units_per_row:
                idx_w, idx_h = 0, idx_h + units_h
    writer = ("writer_unary_sharded_blocks_interleaved_start_id.cpp" if tiled
              else "writer_unary_stick_layout_sharded_blocks_interleaved_start_id.cpp")
    kernels = [
        ttnn.KernelDescriptor(kernel_source=SHARDED + "dataflow/reader_unary_sharded.cpp", core_ranges=spec.grid,
                              compile_time_args=[0], runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=SHARDED + "dataflow/" + writer, core_ranges=spec.grid,
                              compile_time_args=[0] + ttnn.TensorAccessorArgs(dst).get_compile_time_args(),
                              runtime_args=writer_args, config=ttnn.WriterConfigDescriptor()),
    ]
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


@pytest.mark.parametrize("layout", [ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT], ids=["tiles", "rows"])
def test_sharded_to_interleaved(device, layout):
    """ttnn.sharded_to_interleaved of a bf16 tensor height-sharded over 4 cores into DRAM: 256 x 64 in
    shards of 64 rows (2 x 2 tiles each), or 128 x 48 row-major in shards of 32 rows."""
    tiled = layout == ttnn.TILE_LAYOUT
    shape, shard_rows = ((256, 64), 64) if tiled else ((128, 48), 32)
    values = _values(shape, 17)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=layout, device=device,
                          memory_config=_height_sharded(shard_rows, shape[1], 4))
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(shape), ttnn.bfloat16, layout, device, ttnn.DRAM_MEMORY_CONFIG)
    ttnn.generic_op([src, dst], _sharded_to_interleaved_program(src, dst))
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))


# ---- interleaved to sharded ----

def _interleaved_to_sharded_program(src, dst):
    """InterleavedToShardedProgramFactory::create_descriptor (interleaved_to_sharded_program_factory.cpp),
    one dtype, a height-sharded output. In L1 the output's shard backs c_0 on each shard core, the
    reader fills it from the interleaved input (tiles by tile id; rows by stick id, the aligned path
    as the rows here are whole and 64 B multiples) and writer_unary_sharded.cpp only waits for the
    pages. In DRAM the shard grid is the banks: a worker core per shard fills an unbound c_0 (pages
    aligned to DRAM's 64 B) and writer_unary_sharded_blocks_start_id.cpp (tiles) or
    writer_unary_sharded_stick_layout_start_id.cpp (rows) writes it through the output's
    TensorAccessor by page id. Blackhole also gets the scratch CB c_1 the unaligned row path would use
    (4 pages of the unit plus 64 B)."""
    spec = dst.memory_config().shard_spec
    shard_h, shard_w = spec.shape
    tiled = src.layout == ttnn.TILE_LAYOUT
    in_dram = dst.memory_config().buffer_type == ttnn.BufferType.DRAM
    # ttnn's worker cores for DRAM shards are each bank's nearest worker
    # (get_optimal_worker_cores_for_sharded_tensor); the emulator's DRAM is as near to every core, so
    # the first cores of row 0 stand in for them, one a bank
    cores = _cores_of(spec.grid)
    grid = spec.grid
    if in_dram:
        grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(len(cores) - 1, 0))])
        cores = _cores_of(grid)
    rows = int(np.prod(src.shape[:-1]))
    if tiled:
        unit, units_h, units_w = 2048, shard_h // 32, shard_w // 32
        units_per_row, height_units = src.shape[-1] // 32, rows // 32
    else:
        unit, units_h, units_w = shard_w * 2, shard_h, 1
        units_per_row, height_units = src.shape[-1] * 2, rows
    per_shard = units_h * units_w
    last_h = units_h - (-(-height_units // units_h) * units_h - height_units)
    out_page = -(-unit // (64 if in_dram else 16)) * (64 if in_dram else 16)  # the output buffer's alignment
    scratch_page = -(-(unit + 64) // 64) * 64
    cbs = [ttnn.CBDescriptor(total_size=per_shard * out_page, core_ranges=grid,
                             format_descriptors=[ttnn.CBFormatDescriptor(0, dst.dtype, out_page)],
                             buffer=None if in_dram else dst),
           _cb(1, src.dtype, scratch_page, 4, grid)]
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    idx_h = idx_w = 0
    for i, core in enumerate(cores):
        height = last_h if i == len(cores) - 1 else units_h
        units = height * units_w
        if tiled:
            reader_args[core.x][core.y] = [src.buffer_address(), height, units_w, 0, units_per_row, units,
                                           idx_h + idx_w, 0]
            writer_args[core.x][core.y] = ([dst.buffer_address(), height, units_w, 0, units, units_per_row,
                                            idx_h + idx_w, 0] if in_dram else [units])  # fmt: skip
            idx_w += units_w
            if idx_w >= units_per_row:
                idx_w, idx_h = 0, idx_h + units_per_row * units_h
        else:
            padded = -(-unit // 16) * 16
            aligned = int(idx_w % 64 == 0 and padded % 64 == 0)
            assert aligned, "the rows of these entries take the aligned path"
            reader_args[core.x][core.y] = [src.buffer_address(), units_per_row, height, unit, padded, aligned,
                                           idx_w, unit, 0, idx_h]
            width_pages = -(-units_per_row // unit)
            writer_args[core.x][core.y] = ([dst.buffer_address(), height, unit, padded, idx_h * width_pages + idx_w // unit,
                                            width_pages] if in_dram else [units])  # fmt: skip
            idx_w += unit
            if idx_w >= units_per_row:
                idx_w, idx_h = 0, idx_h + units_h
    if tiled:
        reader = "reader_unary_sharded_blocks_interleaved_start_id.cpp"
        reader_ct = [0, len(cores)]
    else:
        reader = "reader_unary_stick_layout_sharded_blocks_interleaved_start_id.cpp"
        reader_ct = [0, 1, 4]
    writer, writer_ct = "writer_unary_sharded.cpp", [0]
    if in_dram:
        writer = "writer_unary_sharded_blocks_start_id.cpp" if tiled else "writer_unary_sharded_stick_layout_start_id.cpp"
        writer_ct += ttnn.TensorAccessorArgs(dst).get_compile_time_args()
    kernels = [
        ttnn.KernelDescriptor(kernel_source=SHARDED + "dataflow/" + reader, core_ranges=grid,
                              compile_time_args=reader_ct + ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                              runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=SHARDED + "dataflow/" + writer, core_ranges=grid,
                              compile_time_args=writer_ct, runtime_args=writer_args, config=ttnn.WriterConfigDescriptor()),
    ]
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


@pytest.mark.parametrize("layout", [ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT], ids=["tiles", "rows"])
def test_interleaved_to_sharded(device, layout):
    """ttnn.interleaved_to_sharded of a bf16 DRAM tensor into L1 height-sharded over 4 cores: 256 x 64
    in shards of 64 rows (2 x 2 tiles), or 128 x 64 row-major in shards of 32 rows of 128 B."""
    tiled = layout == ttnn.TILE_LAYOUT
    shape, shard_rows = ((256, 64), 64) if tiled else ((128, 64), 32)
    values = _values(shape, 18)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=layout, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(shape), ttnn.bfloat16, layout, device,
                                         _height_sharded(shard_rows, shape[1], 4))
    ttnn.generic_op([src, dst], _interleaved_to_sharded_program(src, dst))
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))


@pytest.mark.parametrize("layout", [ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT], ids=["tiles", "rows"])
def test_interleaved_to_sharded_dram(device, layout):
    """ttnn.interleaved_to_sharded into a DRAM height-sharded output, shards on banks 0..3: 224 x 64 in
    shards of 64 rows (the last bank's shard 1 tile row of 2), or 112 x 64 row-major in shards of 32
    rows (the last 16). The output's bytes are read back shard by shard from the banks."""
    tiled = layout == ttnn.TILE_LAYOUT
    shape, shard_rows = ((224, 64), 64) if tiled else ((112, 64), 32)
    values = _values(shape, 19)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=layout, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)
    banks = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 0))])
    sharded = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.DRAM,
                                ttnn.ShardSpec(banks, [shard_rows, shape[1]], ttnn.ShardOrientation.ROW_MAJOR))
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(shape), ttnn.bfloat16, layout, device, sharded)
    ttnn.generic_op([src, dst], _interleaved_to_sharded_program(src, dst))
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))


# ---- transpose of a sharded row-major tensor ----

TRANSPOSE = "ttnn/cpp/ttnn/operations/data_movement/transpose/device/kernels/"


def _transpose_wh_sharded_rm_program(src, dst):
    """TransposeWHShardedRMProgramFactory::create_descriptor (transpose_wh_sharded_rm_program_factory.cpp),
    H and W whole tiles: each core's input shard (c_0) holds whole H x W blocks; the reader gathers
    each block's rows a tile row at a time into c_24, transpose_wh_rm.cpp tilizes them (c_25),
    transposes the tiles and packs them back to rows, straight into the output shard (c_16) when the
    block has at most 8 tile rows, else through c_26 and c_27, from which the writer places the rows."""
    H, W = src.shape[-2], src.shape[-1]
    ht, wt = H // 32, W // 32
    elem, tile = 2, 2048
    spec = src.memory_config().shard_spec
    shard_h = spec.shape[0]
    blocks = shard_h // H
    cores = spec.grid
    stick = W * elem
    cbs = [ttnn.CBDescriptor(total_size=shard_h * stick, core_ranges=cores,
                             format_descriptors=[ttnn.CBFormatDescriptor(0, src.dtype, stick)], buffer=src),
           ttnn.CBDescriptor(total_size=stick * shard_h, core_ranges=cores,
                             format_descriptors=[ttnn.CBFormatDescriptor(16, dst.dtype, tile)], buffer=dst),
           _cb(24, src.dtype, tile, 2 * wt, cores), _cb(25, src.dtype, tile, ht * wt, cores)]
    if ht > 8:
        cbs += [_cb(26, dst.dtype, tile, ht, cores), _cb(27, dst.dtype, tile, 2 * ht, cores)]
    reader_ct = [blocks, ht, 32, 32, wt, stick, wt * elem * 32, 32, 32]
    writer_ct = [blocks, ht, wt, 32, 32, H * elem, ht * elem * 32]
    compute_ct = [ht, wt, ht * wt, blocks, 32, 1, 1, 1, 1]
    reader_args = ttnn.RuntimeArgs()
    for core in _cores_of(cores, row_wise=False):
        reader_args[core.x][core.y] = [0]
    kernels = [
        ttnn.KernelDescriptor(kernel_source=TRANSPOSE + "dataflow/reader_unary_transpose_wh_sharded_rm.cpp",
                              core_ranges=cores, compile_time_args=reader_ct, runtime_args=reader_args,
                              config=ttnn.ReaderConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=TRANSPOSE + "dataflow/writer_unary_transpose_wh_sharded_rm.cpp",
                              core_ranges=cores, compile_time_args=writer_ct, config=ttnn.WriterConfigDescriptor()),
        ttnn.KernelDescriptor(kernel_source=TRANSPOSE + "compute/transpose_wh_rm.cpp", core_ranges=cores,
                              compile_time_args=compute_ct, defines=[("SHARDED", "1")],
                              config=ttnn.ComputeConfigDescriptor()),
    ]
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


@pytest.mark.parametrize("shape, cores", [((1, 2, 32, 96), 2), ((1, 1, 288, 32), 1)], ids=["direct", "staged"])
def test_transpose_wh_sharded_rows(device, shape, cores):
    """ttnn.transpose(-2, -1) of a row-major bf16 tensor height-sharded one H x W block per core, into
    a tensor sharded alike: 32 x 96 blocks on 2 cores (packed straight into the output shard), and one
    288 x 32 block (9 tile rows: staged through c_26 and c_27 and placed by the writer). Exact."""
    values = _values(shape, 19)
    H, W = shape[-2], shape[-1]
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=_height_sharded(H, W, cores))
    out_shape = shape[:-2] + (W, H)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(out_shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         _height_sharded(W, H, cores))
    ttnn.generic_op([src, dst], _transpose_wh_sharded_rm_program(src, dst))
    np.testing.assert_array_equal(ttnn.to_numpy(dst), np.swapaxes(ttnn.to_numpy(src), -1, -2))


def _transpose_hc_sharded_args(src, special):
    """The per-core runtime args of TransposeHCShardedProgramFactory (transpose_hc_sharded_program_factory.cpp):
    get_runtime_args_hc_rm_sharded (each core gathers its output sticks one by one from the shards,
    given the grid's NoC x and y coordinates), or, in the special case, ..._special_case: the shard cores
    each core reads from, at which stick offset, with the sticks split between reader and writer."""
    N, C, H, W = src.shape
    spec = src.memory_config().shard_spec
    shard_h = spec.shape[0]
    stick = W * 2
    device = src.device()
    cores = _cores_of(spec.grid)
    grid_x = max(c.x for c in cores) + 1
    grid_y = max(c.y for c in cores) + 1
    args = []
    if not special:
        x_map = [device.worker_core_from_logical_core(ttnn.CoreCoord(i, 0)).x for i in range(grid_x)]
        y_map = [device.worker_core_from_logical_core(ttnn.CoreCoord(0, i)).y for i in range(grid_y)]
        c = h = n = read = 0
        for _ in cores:
            args.append(([shard_h, read, c, h, n] + x_map + y_map, None))
            for _ in range(shard_h):
                c, read = c + 1, read + H
                if c == C:
                    h, c = h + 1, 0
                    if h == H:
                        n, h, read = n + 1, 0, read - H + 1
                    else:
                        read = read - C * H + 1
        return args
    h_blocks = max(shard_h // H, 1)
    c_blocks = shard_h // C if shard_h > C else 1
    c = h = read = 0
    for _ in cores:
        stick_ids = []
        for _ in range(shard_h):
            stick_ids.append(read)
            c, read = c + 1, read + H
            if c == C:
                h, c = h + 1, 0
                if h == H:
                    h, read = 0, read - H + 1
                else:
                    read = read - C * H + 1
        shard_ids, offsets, xs, ys = [], [], [], []
        for stick_id in stick_ids:
            shard_id = stick_id // shard_h
            outer, inner = shard_id // grid_x, shard_id % grid_x
            if inner < grid_x and outer < grid_y:
                at = device.worker_core_from_logical_core(ttnn.CoreCoord(inner, outer))
                shard_ids.append(shard_id)
                offsets.append((stick_id - shard_id * shard_h) * stick)
                xs.append(at.x)
                ys.append(at.y)
        reader_sticks = writer_sticks = writer_read = writer_write = 0
        reader_c_blocks, writer_c_blocks = c_blocks, 0
        cores_read = len(shard_ids)
        stride = offsets[1] - offsets[0] if len(offsets) > 1 else 0
        if h_blocks == 1:
            repeat = next((k for k in range(1, len(shard_ids)) if shard_ids[k] == shard_ids[0]), None)
            if repeat is not None:
                cores_read, stride = repeat, offsets[repeat] - offsets[0]
            per_core = shard_h // cores_read
            reader_sticks = per_core
            if per_core > 2:  # split between the two processors
                reader_sticks = per_core // 2
                writer_sticks = per_core - reader_sticks
                writer_read = reader_sticks * stride
                writer_write = writer_read * cores_read
            picks = range(cores_read)
        else:
            cores_read = len(set(shard_ids))
            stride = offsets[1] - offsets[0]
            per_core = shard_h // cores_read // c_blocks
            reader_sticks = writer_sticks = per_core
            if c_blocks > 2:
                reader_c_blocks = c_blocks // 2
                writer_c_blocks = c_blocks - reader_c_blocks
                writer_read = reader_c_blocks * stick
                writer_write = reader_c_blocks * cores_read * per_core * stick
            picks = [k * per_core for k in range(cores_read)]
        tables = [offsets[k] for k in picks] + [xs[k] for k in picks] + [ys[k] for k in picks]
        single = int(h_blocks == 1)
        args.append(([single, reader_c_blocks, reader_sticks, cores_read, stride] + tables,
                     [single, writer_c_blocks, writer_sticks, cores_read, stride, writer_read, writer_write] + tables))
    return args


def _transpose_hc_sharded_program(src, dst):
    """TransposeHCShardedProgramFactory::create (a Program of CreateKernel calls, expressed here as the
    ProgramDescriptor it amounts to), ROW_MAJOR orientation: input and output shards back c_0 and c_16;
    in the special case (shard height, C and H dividing one another, a shard no taller than C x H) the
    reader and writer (USE_SPECIAL_CASE) copy runs of sticks from a list of shard cores, else the
    reader alone gathers every output stick."""
    N, C, H, W = src.shape
    spec = src.memory_config().shard_spec
    shard_h = spec.shape[0]
    stick = W * 2
    special = ((shard_h % H == 0 or H % shard_h == 0) and (shard_h % C == 0 or C % shard_h == 0)
               and (C % H == 0 or H % C == 0) and shard_h <= C * H)
    cores = _cores_of(spec.grid)
    grid_x, grid_y = max(c.x for c in cores) + 1, max(c.y for c in cores) + 1
    cbs = [ttnn.CBDescriptor(total_size=shard_h * stick, core_ranges=spec.grid,
                             format_descriptors=[ttnn.CBFormatDescriptor(0, src.dtype, stick)], buffer=src),
           ttnn.CBDescriptor(total_size=shard_h * stick, core_ranges=spec.grid,
                             format_descriptors=[ttnn.CBFormatDescriptor(16, dst.dtype, stick)], buffer=dst)]
    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for core, (reader, writer) in zip(cores, _transpose_hc_sharded_args(src, special)):
        reader_args[core.x][core.y] = reader
        if writer is not None:
            writer_args[core.x][core.y] = writer
    if special:
        reader_ct, defines = [0, 16, stick], [("USE_SPECIAL_CASE", "1")]
    else:
        reader_ct, defines = [0, 16, N, H, C, stick, 1, grid_x, grid_y], []
    kernels = [ttnn.KernelDescriptor(kernel_source=TRANSPOSE + "dataflow/reader_unary_transpose_hc_sharded_rm.cpp",
                                     core_ranges=spec.grid, compile_time_args=reader_ct, defines=defines,
                                     runtime_args=reader_args, config=ttnn.ReaderConfigDescriptor())]
    if special:
        kernels.append(ttnn.KernelDescriptor(
            kernel_source=TRANSPOSE + "dataflow/writer_unary_transpose_hc_sharded_rm.cpp", core_ranges=spec.grid,
            compile_time_args=[0, 16, stick], runtime_args=writer_args, config=ttnn.WriterConfigDescriptor()))
    return special, ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)


@pytest.mark.parametrize("shape, shard_h, special", [
    ((1, 3, 4, 16), 4, False), ((1, 2, 8, 16), 8, True), ((2, 4, 2, 16), 8, True), ((1, 2, 16, 16), 8, True)],
    ids=["general", "one_h_block", "h_blocks", "split"])
def test_transpose_hc_sharded_rows(device, shape, shard_h, special):
    """ttnn.transpose(1, 2) of a row-major bf16 N x C x H x W tensor height-sharded over a row of cores,
    into a tensor sharded alike: the general path (3 x 4 sticks over 3 cores), and the special case
    with one H block per shard, several H blocks per shard, and a shard whose sticks the reader and
    writer split. Exact."""
    values = _values(shape, 20)
    N, C, H, W = shape
    cores = N * C * H // shard_h
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=_height_sharded(shard_h, W, cores))
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape((N, H, C, W)), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         _height_sharded(shard_h, W, cores))
    built, program = _transpose_hc_sharded_program(src, dst)
    assert built == special
    ttnn.generic_op([src, dst], program)
    np.testing.assert_array_equal(ttnn.to_numpy(dst), np.swapaxes(ttnn.to_numpy(src), 1, 2))
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
