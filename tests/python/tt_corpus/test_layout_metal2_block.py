"""Tilize and untilize split into 2-D blocks (TilizeMultiCoreBlockProgramFactory and
UntilizeMultiCoreBlockProgramFactory, ttnn 0.81.1's "tilize_multi_core_block" and
"untilize_multi_core_block", chosen for tensors wider than 32 tiles where square blocks give more
cores than whole tile rows would): square blocks of tiles handed out over the grid, a narrower cliff
block closing each block row and a shorter cliff block row at the bottom, each block width with its
own pair of buffers. Kernels unchanged from the reference tree, bound as the specs bind them; checked
exactly against the input."""
import numpy as np
import pytest

import ditmk.ttnn as ttnn
from corpus import assert_close
from layout_factories import TILE, TILE_BYTES, dfb, metal2, ranges_of, split_blocks_for_tilize_wh

pytestmark = pytest.mark.tt_corpus

BLOCK_READER = ("ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/"
                "reader_unary_interleaved_wh_multicore_metal2.cpp")  # fmt: skip
BLOCK_WRITER = ("ttnn/cpp/ttnn/operations/data_movement/untilize_with_unpadding/device/kernels/dataflow/"
                "writer_unary_stick_layout_wh_multicore_metal2.cpp")  # fmt: skip
UNTILIZE_WH = "ttnn/cpp/ttnn/operations/data_movement/untilize/device/kernels/compute/untilize_wh_metal2.cpp"


def _third_dim(shape):
    return 1 if len(shape) < 3 else (shape[-3] if len(shape) == 3 else shape[-3] * shape[-4])


def _buffer_sets(split, src, dst):
    """make_block_plan's buffer sets: "full" (the sub-block's width) on the full and cliff-column
    cores, "cliffrow" (the cliff row's width) on the cliff-row cores; each set that has cores gets an
    input and an output buffer of its width in tiles, full's pair first. Returns the sets (cores,
    width), their buffer ids (input, output) and the CB descriptors."""
    reg = split["regions"]
    sets = {"full": (reg["full"] + reg["cliff_col"], split["sub_block"]),
            "cliffrow": (reg["cliff_row"] + reg["cliff_col_row"], split["cliff_row"])}  # fmt: skip
    ids, cbs = {}, []
    for name, (cores, width) in sets.items():
        if cores:
            ids[name] = (2 * len(ids), 2 * len(ids) + 1)
            cbs += [dfb(ids[name][0], src.dtype, TILE_BYTES, width, ranges_of(cores)),
                    dfb(ids[name][1], dst.dtype, TILE_BYTES, width, ranges_of(cores))]  # fmt: skip
    return sets, ids, cbs


def _block_walk(split, row_bytes, elem):
    """The block factories' runtime-arg loop over the split's cores in order: per core its buffer set
    and (block width, block height, sub-block width) in tiles, its first row and first column byte of
    the row-major tensor and its first tile, advancing along each block row and down at its end."""
    side, sub, cliff_row, cliff_col = split["side"], split["sub_block"], split["cliff_row"], split["cliff_col"]
    reg, ncores, fpr, fpc = split["regions"], split["ncores"], split["full_per_row"], split["full_per_col"]
    both_cliffs = split["has_cliff_col"] and split["has_cliff_row"]
    total_row_cores = fpr + (1 if split["has_cliff_row"] else 0)
    total_tiles_per_row = fpr * side + (cliff_row if split["has_cliff_row"] else 0)
    start_row, start_col, tile_start, cols_done = 0, 0, 0, 1
    for i, core in enumerate(split["order"]):
        if both_cliffs and i == ncores - 1:
            row_arg, col_arg, sub_arg = cliff_row, cliff_col, cliff_row
        elif split["has_cliff_row"] and i != 0 and (i + 1) % (fpr + 1) == 0:
            row_arg, col_arg, sub_arg = cliff_row, side, cliff_row
        elif i < total_row_cores * fpc:
            row_arg, col_arg, sub_arg = side, side, sub
        else:
            row_arg, col_arg, sub_arg = side, cliff_col, sub
        name = "cliffrow" if (core in reg["cliff_row"] or core in reg["cliff_col_row"]) else "full"
        yield core, name, (row_arg, col_arg, sub_arg), start_row, start_col, tile_start
        end_col = start_col + row_arg * TILE * elem
        start_col = end_col % row_bytes
        if end_col % row_bytes == 0 and end_col != 0:
            start_row += col_arg * TILE
        if start_col == 0:
            tile_start = cols_done * col_arg * total_tiles_per_row
            cols_done += 1
        else:
            tile_start += row_arg


def _compute_regions(split):
    """One compute kernel per region that has cores: (region, buffer set, block count, block width),
    compute_full, _cliff_col_row, _cliff_row, _cliff_col in the factories' order."""
    side, sub, cliff_row, cliff_col = split["side"], split["sub_block"], split["cliff_row"], split["cliff_col"]
    regions = [("full", "full", side * side // sub, sub), ("cliff_col_row", "cliffrow", cliff_col, cliff_row),
               ("cliff_row", "cliffrow", side, cliff_row), ("cliff_col", "full", cliff_col * side // sub, sub)]
    return [r for r in regions if split["regions"][r[0]]]


def untilize_block(src, dst):
    """The factory: split_blocks_for_tilize_wh over the input's last two dimensions (row-major core
    order over the device grid); its buffer sets (_buffer_sets); one reader and writer per set and one
    compute kernel per region (block count x width: full side x side, cliff-col-row cliff_col x
    cliff_row, cliff-row side x cliff_row, cliff-col cliff_col x side); per-core args from the
    factory's walk (_block_walk)."""
    grid = src.device().compute_with_storage_grid_size()
    shape = src.padded_shape
    width_tiles, height_tiles = shape[-1] // TILE, shape[-2] // TILE
    row_major = [ttnn.CoreCoord(i % grid.x, i // grid.x) for i in range(grid.x * grid.y)]
    s = split_blocks_for_tilize_wh(row_major, width_tiles * height_tiles, width_tiles, height_tiles)
    third_dim = _third_dim(shape)
    elem = 2
    row_bytes = shape[-1] * elem
    total_tiles_per_row = s["full_per_row"] * s["side"] + (s["cliff_row"] if s["has_cliff_row"] else 0)
    sets, ids, cbs = _buffer_sets(s, src, dst)
    reader_rt = {name: ttnn.RuntimeArgs() for name in ids}
    writer_rt = {name: ttnn.RuntimeArgs() for name in ids}
    for core, name, (row_arg, col_arg, sub_arg), start_row, start_col, tile_start in _block_walk(s, row_bytes, elem):
        assert sub_arg == sets[name][1]
        reader_rt[name][core.x][core.y] = [tile_start, row_arg, col_arg]
        writer_rt[name][core.x][core.y] = [TILE * elem * row_arg, start_row, start_col, row_arg, col_arg,
                                           TILE * elem * sub_arg, sub_arg]  # fmt: skip
    kernels = []
    for name in ids:
        cores = ranges_of(sets[name][0])
        kernels.append(metal2(BLOCK_READER, cores, ttnn.ReaderConfigDescriptor(),
                              cta=[("num_tiles_per_2d", width_tiles * height_tiles), ("third_dim", third_dim),
                                   ("total_tiles_per_row", total_tiles_per_row)],
                              rta_names=["start_id", "single_block_size_row_arg", "single_block_size_col_arg"],
                              rt=reader_rt[name], dfbs={"in": ids[name][0]}, tensors=[("src", src)]))  # fmt: skip
        kernels.append(metal2(BLOCK_WRITER, cores, ttnn.WriterConfigDescriptor(),
                              cta=[("total_num_rows", dst.shape[-2]), ("third_dim", third_dim), ("tile_height", TILE),
                                   ("unpadded_X_size", row_bytes)],
                              rta_names=["width_size", "start_row_id", "start_column_id", "single_block_size_row_arg",
                                         "single_block_size_col_arg", "sub_block_width_size",
                                         "single_sub_block_size_row_arg"],
                              rt=writer_rt[name], dfbs={"out": ids[name][1]}, tensors=[("dst", dst)]))  # fmt: skip
    for region, name, block_col, block_row in _compute_regions(s):
        assert block_row == sets[name][1]
        kernels.append(metal2(UNTILIZE_WH, ranges_of(s["regions"][region]), ttnn.ComputeConfigDescriptor(),
                              cta=[("block_size_col", block_col), ("block_size_row", block_row),
                                   ("third_dim", third_dim)],
                              dfbs={"src": ids[name][0], "out": ids[name][1]}))  # fmt: skip
    out = ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))
    return out, s


@pytest.mark.parametrize("shape,regions", [
    ((5 * TILE, 35 * TILE), {"full": 34, "cliff_row": 2, "cliff_col": 17, "cliff_col_row": 1}),
    ((2, 2 * TILE, 33 * TILE), {"full": 66, "cliff_row": 0, "cliff_col": 0, "cliff_col_row": 0}),
], ids=["5x35-tiles-all-cliffs", "2x2x33-tiles"])  # fmt: skip
def test_untilize_multi_core_block(device, shape, regions):
    """5 x 35 tiles: 2x2 blocks, 17 full ones and a 1-tile-wide cliff per block row, a 1-tile-high
    cliff row (54 cores, every region); 2 x (2 x 33) tiles: 1x1 blocks on 66 cores, a batch of two."""
    values = np.random.default_rng(11).uniform(-4.0, 4.0, size=shape).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    out, split = untilize_block(src, dst)
    assert {k: len(v) for k, v in split["regions"].items()} == regions
    np.testing.assert_array_equal(ttnn.to_numpy(out), ttnn.to_numpy(src))
    assert_close(ttnn.to_numpy(out), values)


BLOCK_TILIZE_READER = ("ttnn/cpp/ttnn/operations/data_movement/tilize_with_val_padding/device/kernels/dataflow/"
                       "reader_unary_pad_multicore_both_dims.cpp")  # fmt: skip
BLOCK_TILE_WRITER = ("ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/"
                     "writer_unary_interleaved_start_id_wh.cpp")  # fmt: skip
TILIZE_WH = "ttnn/cpp/ttnn/operations/data_movement/tilize/device/kernels/compute/tilize_wh.cpp"
DRAM_ALIGNMENT = 64  # Blackhole's


def tilize_block(src, dst):
    """TilizeMultiCoreBlockProgramFactory ("tilize_multi_core_block"): the same 2-D split over the
    output's last two dimensions, its cores in corerange_to_cores order over the device grid (column
    by column); per buffer set an input and an output buffer of the set's block width and, for the
    reader, a private staging scratchpad of one tile row of the block plus two DRAM alignments (where
    a row that is not DRAM-aligned lands before it is moved into place); the row-major block reader
    (pad value 0, the rows' bytes and start column per core), tilize_wh.cpp per region, and the
    block tile writer from each core's first tile."""
    grid = src.device().compute_with_storage_grid_size()
    shape = dst.padded_shape
    width_tiles, height_tiles = shape[-1] // TILE, shape[-2] // TILE
    column_major = [ttnn.CoreCoord(x, y) for x in range(grid.x) for y in range(grid.y)]
    s = split_blocks_for_tilize_wh(column_major, width_tiles * height_tiles, width_tiles, height_tiles)
    third_dim = _third_dim(shape)
    elem = 2
    row_bytes = src.padded_shape[-1] * elem
    total_tiles_per_row = s["full_per_row"] * s["side"] + (s["cliff_row"] if s["has_cliff_row"] else 0)
    sets, ids, cbs = _buffer_sets(s, src, dst)
    reader_rt = {name: ttnn.RuntimeArgs() for name in ids}
    writer_rt = {name: ttnn.RuntimeArgs() for name in ids}
    for core, name, (row_arg, col_arg, sub_arg), start_row, start_col, tile_start in _block_walk(s, row_bytes, elem):
        assert sub_arg == sets[name][1]
        reader_rt[name][core.x][core.y] = [0, TILE * elem * row_arg, start_row, start_col, row_arg, col_arg,
                                           TILE * elem * sub_arg, sub_arg]  # fmt: skip
        writer_rt[name][core.x][core.y] = [tile_start, row_arg, col_arg]
    kernels = []
    for name in ids:
        cores = ranges_of(sets[name][0])
        staging = (TILE_BYTES // TILE) * sets[name][1] + 2 * DRAM_ALIGNMENT
        kernels.append(metal2(BLOCK_TILIZE_READER, cores, ttnn.ReaderConfigDescriptor(),
                              cta=[("total_num_rows", src.shape[-2]), ("third_dim", third_dim), ("tile_height", TILE),
                                   ("element_size", elem), ("unpadded_X_size", row_bytes),
                                   ("dram_alignment", DRAM_ALIGNMENT)],
                              rta_names=["pad_value", "width_size", "start_row_id", "start_column_id",
                                         "single_block_size_row_arg", "single_block_size_col_arg",
                                         "sub_block_width_size", "single_sub_block_size_row_arg"],
                              rt=reader_rt[name], dfbs={"in": ids[name][0]}, tensors=[("src", src)],
                              scratchpads={"staging": staging}))  # fmt: skip
        kernels.append(metal2(BLOCK_TILE_WRITER, cores, ttnn.WriterConfigDescriptor(),
                              cta=[("num_tiles_per_2d", width_tiles * height_tiles), ("third_dim", third_dim),
                                   ("total_tiles_per_row", total_tiles_per_row)],
                              rta_names=["start_id", "single_block_size_row_arg", "single_block_size_col_arg"],
                              rt=writer_rt[name], dfbs={"out": ids[name][1]}, tensors=[("dst", dst)]))  # fmt: skip
    for region, name, block_col, block_row in _compute_regions(s):
        assert block_row == sets[name][1]
        kernels.append(metal2(TILIZE_WH, ranges_of(s["regions"][region]), ttnn.ComputeConfigDescriptor(),
                              cta=[("block_size_col", block_col), ("block_size_row", block_row),
                                   ("third_dim", third_dim)],
                              dfbs={"in": ids[name][0], "out": ids[name][1]}))  # fmt: skip
    out = ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))
    return out, s


@pytest.mark.parametrize("shape,regions", [
    ((5 * TILE, 35 * TILE), {"full": 34, "cliff_row": 2, "cliff_col": 17, "cliff_col_row": 1}),
    ((2, 2 * TILE, 33 * TILE), {"full": 66, "cliff_row": 0, "cliff_col": 0, "cliff_col_row": 0}),
], ids=["5x35-tiles-all-cliffs", "2x2x33-tiles"])  # fmt: skip
def test_tilize_multi_core_block(device, shape, regions):
    """The untilize block test's shapes the other way: 54 cores in every region, and 66 cores with a
    batch of two; the cores now column by column."""
    values = np.random.default_rng(12).uniform(-4.0, 4.0, size=shape).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    out, split = tilize_block(src, dst)
    assert {k: len(v) for k, v in split["regions"].items()} == regions
    np.testing.assert_array_equal(ttnn.to_numpy(out), ttnn.to_numpy(src))
    assert_close(ttnn.to_numpy(out), values)
