"""Untilize split by columns (UntilizeMultiCoreParallelizeColumnProgramFactory, ttnn 0.81.1's
"untilize_multi_core_parallelize_column"): a tensor one tile high, its tiles dealt out to a grid
whose sides divide the tile count, each core untilizing its run of columns and writing them at its
byte offset inside the 32 sticks. Kernels unchanged from the reference tree, bound as the spec binds
them; checked exactly against the input."""
import numpy as np
import pytest

import ditmk.ttnn as ttnn
from corpus import assert_close
from layout_factories import TILE, TILE_BYTES, dfb, largest_divisor, metal2, ranges_of, split_blocks_for_tilize_grid

pytestmark = pytest.mark.tt_corpus

UNTILIZE = "ttnn/cpp/ttnn/operations/data_movement/untilize/device/kernels/"
TILE_READER = ("ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/"
               "reader_unary_interleaved_start_id_metal2.cpp")  # fmt: skip
SRC0, OUT = 0, 1  # the spec's DataflowBuffers in order: src0, out


def untilize_parallelize_column(src, dst):
    """The factory's split: ncores_x the largest divisor of the tile count within the grid's width,
    ncores_y the largest within its height that keeps ncores_x * ncores_y a divisor; one tile per
    block; split_blocks_for_tilize over that grid, cores row by row. Each core reads its tiles from
    its start tile on; its writer walks the 32 sticks from stick 0, starting at the byte offset where
    the previous cores' columns end. One compute spec for the full cores, one for a cliff core."""
    device = src.device()
    grid = device.compute_with_storage_grid_size()
    ntiles = int(np.prod(src.padded_shape)) // (TILE * TILE)
    width = src.padded_shape[-1]
    tiles_per_row = width // TILE
    tiles_per_column = ntiles // tiles_per_row
    nx = largest_divisor(ntiles, grid.x)
    ny = largest_divisor(ntiles, grid.y, nx)
    tiles_per_block = ntiles // (nx * ny)
    tiles_per_block = largest_divisor(tiles_per_row, 1 if tiles_per_row > 1 else tiles_per_block)
    nblocks = ntiles // tiles_per_block
    ncores, full, cliff_core, per_core, cliff_blocks = split_blocks_for_tilize_grid(ttnn.CoreCoord(nx, ny), nblocks)
    elem = 2
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    tile_start, offset = 0, 0
    sticks = tiles_per_column * TILE
    for core, blocks in [(c, per_core) for c in full] + ([(cliff_core, cliff_blocks)] if cliff_core else []):
        tiles = tiles_per_block * blocks
        reader_rt[core.x][core.y] = [tiles, tile_start]
        writer_rt[core.x][core.y] = [sticks, tiles, TILE * elem, 0, offset]
        tile_start += tiles
        offset += tiles * TILE * elem
    all_cores = ranges_of(full + ([cliff_core] if cliff_core else []))
    kernels = [
        metal2(TILE_READER, all_cores, ttnn.ReaderConfigDescriptor(), rta_names=["num_pages", "start_id"],
               rt=reader_rt, dfbs={"in": SRC0}, tensors=[("src", src)]),
        metal2(UNTILIZE + "dataflow/writer_unary_stick_layout_split_rows_interleaved_parallel_columns.cpp",
               all_cores, ttnn.WriterConfigDescriptor(), cta=[("stick_size", width * elem)],
               rta_names=["num_sticks", "num_tiles_per_core", "tile_width_size", "start_stick_id",
                          "offset_within_stick"], rt=writer_rt, dfbs={"out": OUT}, tensors=[("dst", dst)]),
    ]  # fmt: skip
    for cores, blocks in ([(ranges_of(full), per_core)] if full else []) + (
            [(ranges_of([cliff_core]), cliff_blocks)] if cliff_core else []):  # compute_full, compute_cliff
        kernels.append(metal2(UNTILIZE + "compute/untilize_metal2.cpp", cores, ttnn.ComputeConfigDescriptor(),
                              cta=[("per_core_block_cnt", blocks), ("per_core_block_tile_cnt", tiles_per_block)],
                              dfbs={"src": SRC0, "out": OUT}))  # fmt: skip
    cbs = [dfb(SRC0, src.dtype, TILE_BYTES, 2 * tiles_per_block, all_cores),
           dfb(OUT, dst.dtype, TILE_BYTES, 2 * tiles_per_block, all_cores)]  # fmt: skip
    assert ncores == len(all_cores.cores())
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)), ncores


@pytest.mark.parametrize("tiles,cores", [(12, 12), (40, 40), (13, 1)],
                         ids=["12-tiles-6x2", "40-tiles-10x4", "13-tiles-1-core"])  # fmt: skip
def test_untilize_parallelize_column(device, tiles, cores):
    """One tile row: 12 tiles on a 6x2 grid, 40 on 10x4 (one tile a core), a prime 13 on one core."""
    values = np.random.default_rng(tiles).uniform(-4.0, 4.0, size=(TILE, tiles * TILE)).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    out, ncores = untilize_parallelize_column(src, dst)
    assert ncores == cores
    np.testing.assert_array_equal(ttnn.to_numpy(out), ttnn.to_numpy(src))
    assert_close(ttnn.to_numpy(out), values)
