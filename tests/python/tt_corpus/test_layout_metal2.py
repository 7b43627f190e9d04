"""The data-layout family's Metal 2.0 programs: tilize and untilize as ttnn 0.81.1's program
factories build their ProgramSpecs (single core and multi core), every kernel unchanged from the
reference tree and bound as the spec binds it (ditmk.ttnn.experimental), checked exactly against
the input (tilize and untilize move values, they do not change them)."""
import numpy as np
import pytest

import ditmk.ttnn as ttnn
from ditmk.ttnn._device import L1_BYTES, L1_CB_BASE
from corpus import assert_close
from layout_factories import (TILE, TILE_BYTES, corerange_to_cores, dfb, metal2, ranges_of, single_core,
                              split_blocks_for_tilize_grid, split_blocks_for_tilize_set)  # fmt: skip

pytestmark = pytest.mark.tt_corpus

TILIZE = "ttnn/cpp/ttnn/operations/data_movement/tilize/device/kernels/"
UNTILIZE = "ttnn/cpp/ttnn/operations/data_movement/untilize/device/kernels/"
TILIZE_COMPUTE = "ttnn/cpp/ttnn/kernel/compute/tilize_metal2.cpp"
TILE_WRITER = "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id_metal2.cpp"
IN, OUT = 0, 1  # the two DataflowBuffers' ids (MakeProgramFromSpec allocates them in spec order)


def _values(shape, seed):
    return np.random.default_rng(seed).uniform(-4.0, 4.0, size=shape).astype(np.float32)


def _tensors(device, values, in_layout, out_layout):
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=in_layout, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, out_layout, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    return src, dst


def _check(dst, src, values):
    np.testing.assert_array_equal(ttnn.to_numpy(dst), ttnn.to_numpy(src))
    assert_close(ttnn.to_numpy(dst), values)


def _tile_writer(cores, rt, dst):
    """writer_unary_interleaved_start_id_metal2.cpp: one tile per page, dfb::out, tensor::dst."""
    return metal2(TILE_WRITER, cores, ttnn.WriterConfigDescriptor(), rta_names=["num_pages", "start_id"], rt=rt,
                  dfbs={"out": OUT}, tensors=[("dst", dst)])  # fmt: skip


def _tilize_compute(cores, blocks, tiles_per_block):
    return metal2(TILIZE_COMPUTE, cores, ttnn.ComputeConfigDescriptor(),
                  cta=[("per_core_block_cnt", blocks), ("per_core_block_tile_cnt", tiles_per_block)],
                  dfbs={"in": IN, "out": OUT})  # fmt: skip


def _max_tiles_per_block(tiles_in_row):
    """The single-core factories' block: a whole tile row when its input and output tiles fit half
    of L1 above the allocator's base (l1_size_per_core / 2 - base_allocator_addr; here ditmk's L1
    size and the base of its usable L1), else the largest divisor of the row that fits."""
    max_tiles = (L1_BYTES // 2 - L1_CB_BASE) // (2 * TILE_BYTES)
    if tiles_in_row <= max_tiles:
        return tiles_in_row
    return max(n for n in range(1, max_tiles + 1) if tiles_in_row % n == 0)


def tilize_single_core(src, dst):
    """TilizeSingleCoreProgramFactory ("tilize_single_core"): core (0,0); the split-rows reader reads
    32 sticks per block into dfb in, tilize_metal2.cpp tilizes each block into dfb out, the Metal 2.0
    unary writer writes the tiles in order."""
    core = single_core()
    width = src.padded_shape[-1]
    volume = int(np.prod(src.padded_shape))
    num_tiles, num_sticks, tiles_in_row = volume // (TILE * TILE), volume // width, width // TILE
    per_block = _max_tiles_per_block(tiles_in_row)
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    reader_rt[0][0] = [num_sticks, per_block, per_block * TILE * 2, tiles_in_row // per_block, 0]
    writer_rt[0][0] = [num_tiles, 0]
    kernels = [
        metal2(TILIZE + "dataflow/reader_unary_stick_layout_split_rows_singlecore.cpp", core,
               ttnn.ReaderConfigDescriptor(), cta=[("tile_height", TILE)],
               rta_names=["num_sticks", "num_tiles_per_block", "block_width_size", "num_full_blocks_in_row",
                          "start_stick_id"], rt=reader_rt, dfbs={"in": IN}, tensors=[("src", src)]),
        _tile_writer(core, writer_rt, dst),
        _tilize_compute(core, num_tiles // per_block, per_block),
    ]  # fmt: skip
    cbs = [dfb(IN, src.dtype, TILE_BYTES, per_block, core), dfb(OUT, dst.dtype, TILE_BYTES, per_block, core)]
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


def tilize_multi_core(src, dst, grid):
    """TilizeMultiCoreDefaultProgramFactory ("tilize_multi_core") over the CoreRangeSet `grid` (the
    device's grid, or the op's sub_core_grids): whole tile rows per core, the remainder on a cliff
    core with its own compute kernel; each core's reader starts at its first stick, its writer at
    its first tile."""
    width = src.shape[-1]
    tiles_per_block = -(-width // TILE)
    nblocks = int(np.prod(dst.padded_shape)) // (TILE * TILE) // tiles_per_block
    ncores, full, cliff_core, per_core, cliff_blocks = split_blocks_for_tilize_set(grid, nblocks)
    page_size = width * 2  # one stick per page (interleaved)
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    tile_start, page_start = 0, 0
    for core, blocks in [(c, per_core) for c in full] + ([(cliff_core, cliff_blocks)] if cliff_core else []):
        reader_rt[core.x][core.y] = [blocks * TILE, tiles_per_block, page_size, 1, page_start]
        writer_rt[core.x][core.y] = [tiles_per_block * blocks, tile_start]
        tile_start += tiles_per_block * blocks
        page_start += TILE * blocks
    all_cores = ranges_of(full + ([cliff_core] if cliff_core else []))
    kernels = [
        metal2(TILIZE + "dataflow/reader_unary_stick_layout_split_rows_multicore.cpp", all_cores,
               ttnn.ReaderConfigDescriptor(),
               cta=[("tile_height", TILE), ("num_pages_in_row", 1), ("size_of_valid_data_in_last_page_in_row",
                                                                    page_size)],
               rta_names=["num_rows", "num_tiles_per_block", "block_width_size", "num_full_blocks_in_row",
                          "start_page_id"], rt=reader_rt, dfbs={"in": IN}, tensors=[("src", src)]),
        _tile_writer(all_cores, writer_rt, dst),
    ]  # fmt: skip
    if full:
        kernels.append(_tilize_compute(ranges_of(full), per_core, tiles_per_block))  # compute_full
    if cliff_core:
        kernels.append(_tilize_compute(ranges_of([cliff_core]), cliff_blocks, tiles_per_block))  # compute_cliff
    cbs = [dfb(IN, src.dtype, TILE_BYTES, tiles_per_block, all_cores),
           dfb(OUT, dst.dtype, TILE_BYTES, tiles_per_block, all_cores)]  # fmt: skip
    assert ncores == len(full) + (1 if cliff_core else 0)
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


def _untilize_reader(cores, rt, src):
    """reader_unary_start_id_metal2.cpp: tiles from start_id on into dfb in (spec buffer src0)."""
    return metal2(UNTILIZE + "dataflow/reader_unary_start_id_metal2.cpp", cores, ttnn.ReaderConfigDescriptor(),
                  rta_names=["num_tiles", "start_id"], rt=rt, dfbs={"in": IN}, tensors=[("src", src)])  # fmt: skip


def untilize_single_core(src, dst):
    """UntilizeSingleCoreProgramFactory ("untilize_single_core"): core (0,0); tiles in order into dfb
    src0, untilize_metal2.cpp untilizes one block (a tile row, or a divisor of it) at a time into dfb
    out, the split-rows writer writes each block's 32 rows."""
    core = single_core()
    width = src.padded_shape[-1]
    volume = int(np.prod(src.padded_shape))
    num_tiles, blocks_across_height, tiles_in_row = volume // (TILE * TILE), volume // width // TILE, width // TILE
    per_block = _max_tiles_per_block(tiles_in_row)
    blocks_per_row = tiles_in_row // per_block
    reader_rt = ttnn.RuntimeArgs()
    reader_rt[0][0] = [num_tiles, 0]
    kernels = [
        _untilize_reader(core, reader_rt, src),
        metal2(UNTILIZE + "dataflow/writer_unary_stick_layout_split_rows_single_core.cpp", core,
               ttnn.WriterConfigDescriptor(),
               cta=[("tile_height", TILE), ("num_blocks_across_height", blocks_across_height),
                    ("num_output_columns_of_blocks", 1), ("num_blocks_per_output_column_row", blocks_per_row),
                    ("num_tiles_per_output_block", per_block),
                    ("output_single_block_width_size", per_block * TILE * 2)],
               dfbs={"out": OUT}, tensors=[("dst", dst)]),
        metal2(UNTILIZE + "compute/untilize_metal2.cpp", core, ttnn.ComputeConfigDescriptor(),
               cta=[("per_core_block_cnt", blocks_per_row * blocks_across_height),
                    ("per_core_block_tile_cnt", per_block)], dfbs={"src": IN, "out": OUT}),
    ]  # fmt: skip
    cbs = [dfb(IN, src.dtype, TILE_BYTES, per_block, core), dfb(OUT, dst.dtype, TILE_BYTES, per_block, core)]
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


def untilize_multi_core(src, dst):
    """UntilizeMultiCoreProgramFactory ("untilize_multi_core"), interleaved input and output: tile
    rows split over the compute grid row by row (split_blocks_for_tilize), each core reading its
    rows' tiles, untilize_variable_num_blocks_metal2.cpp (its block count a runtime arg, one spec for
    full cores and one for the cliff core) and the multi-core split-rows writer."""
    device = src.device()
    width = src.padded_shape[-1]
    height = int(np.prod(src.padded_shape)) // width
    tiles_per_row, tile_rows = width // TILE, height // TILE
    ncores, full, cliff_core, per_core, cliff_blocks = split_blocks_for_tilize_grid(
        device.compute_with_storage_grid_size(), tile_rows)
    entries = tiles_per_row if per_core == 1 else 2 * tiles_per_row
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    full_rt, cliff_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()  # compute_full's and compute_cliff's
    full_range = ranges_of(full)
    tile_start = 0
    for i, core in enumerate(corerange_to_cores(full_range, row_wise=True)):
        reader_rt[core.x][core.y] = [tiles_per_row * per_core, tile_start]
        writer_rt[core.x][core.y] = [per_core, i * per_core, width, 0, 0]
        full_rt[core.x][core.y] = [per_core]
        tile_start += tiles_per_row * per_core
    if cliff_core:
        reader_rt[cliff_core.x][cliff_core.y] = [tiles_per_row * cliff_blocks, tile_start]
        writer_rt[cliff_core.x][cliff_core.y] = [cliff_blocks, len(full) * per_core, width, 0, 0]
        cliff_rt[cliff_core.x][cliff_core.y] = [cliff_blocks]
    all_cores = ranges_of(full + ([cliff_core] if cliff_core else []))
    compute_source = UNTILIZE + "compute/untilize_variable_num_blocks_metal2.cpp"
    kernels = [
        _untilize_reader(all_cores, reader_rt, src),
        metal2(UNTILIZE + "dataflow/writer_unary_stick_layout_split_rows_multi_core.cpp", all_cores,
               ttnn.WriterConfigDescriptor(),
               cta=[("tile_height", TILE), ("num_tiles_per_input_block", tiles_per_row),
                    ("num_output_blocks_across_width", 1), ("output_element_size", 2),
                    ("num_cols_per_input_block", tiles_per_row * TILE), ("num_cols_per_output_block", width)],
               rta_names=["num_input_blocks_to_process", "height_wise_input_block_start_index",
                          "num_unpadded_cols_per_input_block", "width_wise_output_block_start_index",
                          "num_cols_already_processed_in_first_output_block"], rt=writer_rt,
               dfbs={"out": OUT}, tensors=[("dst", dst)]),
    ]  # fmt: skip
    for cores, compute_rt in [(full_range, full_rt)] + ([(ranges_of([cliff_core]), cliff_rt)] if cliff_core else []):
        kernels.append(metal2(compute_source, cores, ttnn.ComputeConfigDescriptor(),
                              cta=[("per_core_block_tile_cnt", tiles_per_row)], rta_names=["per_core_block_cnt"],
                              rt=compute_rt, dfbs={"src": IN, "out": OUT}))  # fmt: skip
    cbs = [dfb(IN, src.dtype, TILE_BYTES, entries, all_cores), dfb(OUT, dst.dtype, TILE_BYTES, entries, all_cores)]
    assert ncores == len(all_cores.cores())
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("shape", [(64, 128), (2, 96, 64)], ids=["64x128", "2x96x64"])
def test_tilize_single_core(device, shape):
    values = _values(shape, 4)
    src, dst = _tensors(device, values, ttnn.ROW_MAJOR_LAYOUT, ttnn.TILE_LAYOUT)
    _check(tilize_single_core(src, dst), src, values)


@pytest.mark.parametrize("shape", [(64, 128), (2, 96, 64)], ids=["64x128", "2x96x64"])
def test_untilize_single_core(device, shape):
    values = _values(shape, 5)
    src, dst = _tensors(device, values, ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT)
    _check(untilize_single_core(src, dst), src, values)


def test_tilize_multi_core_device_grid(device):
    """6 tile rows over the whole grid: one row on each of the first 6 cores (column by column)."""
    values = _values((3, 64, 96), 6)
    src, dst = _tensors(device, values, ttnn.ROW_MAJOR_LAYOUT, ttnn.TILE_LAYOUT)
    g = device.compute_with_storage_grid_size()
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(g.x - 1, g.y - 1))])
    _check(tilize_multi_core(src, dst, grid), src, values)


def test_tilize_multi_core_sub_grid_cliff(device):
    """7 tile rows over a 2x2 sub_core_grids: 2 rows on each of 3 cores, 1 on the cliff core."""
    values = _values((7 * TILE, 64), 7)
    src, dst = _tensors(device, values, ttnn.ROW_MAJOR_LAYOUT, ttnn.TILE_LAYOUT)
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(1, 1), ttnn.CoreCoord(2, 2))])
    _check(tilize_multi_core(src, dst, grid), src, values)


@pytest.mark.parametrize("shape", [(4, 64, 96), (113 * TILE, 64)], ids=["8-rows", "113-rows-cliff"])
def test_untilize_multi_core(device, shape):
    """Tile rows over the device grid; 113 rows over its 110 cores: 2 on each of 56, 1 on a cliff core."""
    values = _values(shape, 8)
    src, dst = _tensors(device, values, ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT)
    _check(untilize_multi_core(src, dst), src, values)
