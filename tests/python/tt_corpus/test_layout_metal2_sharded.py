"""Untilize of a height-sharded L1 input whose height is not a whole number of shards
(UntilizeMultiCoreProgramFactory, ttnn 0.81.1's "untilize_multi_core", with its block reader): one
core per shard in the shard grid's row-major order, each reading its shard a tile row at a time with
TensorAccessor::shard_pages, the last core fewer rows. Kernels unchanged from the reference tree,
bound as the spec binds them; checked exactly against the input."""
import numpy as np
import pytest

import ditmk.ttnn as ttnn
from corpus import assert_close
from layout_factories import TILE, TILE_BYTES, ceil_div, corerange_to_cores, dfb, metal2, ranges_of

pytestmark = pytest.mark.tt_corpus

UNTILIZE = "ttnn/cpp/ttnn/operations/data_movement/untilize/device/kernels/"
SRC0, OUT = 0, 1  # the spec's DataflowBuffers in order: src0, out


def untilize_sharded_uneven(src, dst):
    """The factory's sharded path: the cores with data are the shard grid's, row by row; a block is a
    shard-wide tile row (num_tiles_per_input_block = shard width / 32), shard height / 32 blocks a
    core, the last shard's core fewer (its rows beyond the tensor dropped); uneven sharding picks the
    block reader (start_shard_id = the core's index, num_blocks) over a double-buffered src0 rather
    than a buffer borrowed from the shard; untilize_variable_num_blocks_metal2.cpp with the block
    count per core; the multi-core split-rows writer to the interleaved output."""
    spec = src.memory_config().shard_spec
    shard_h, shard_w = spec.shape
    width = src.padded_shape[-1]
    height = int(np.prod(src.padded_shape)) // width
    assert height % shard_h or width % shard_w, "even sharding takes the borrowed-buffer reader"
    tiles_per_block = shard_w // TILE
    blocks_per_core = shard_h // TILE
    blocks_across_width = ceil_div(width, shard_w)
    num_shards_high = ceil_div(height, shard_h)
    cores = corerange_to_cores(spec.grid, row_wise=True)[:num_shards_high * blocks_across_width]
    entries = tiles_per_block if blocks_per_core == 1 else 2 * tiles_per_block
    cols_per_block = tiles_per_block * TILE
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for i, core in enumerate(cores):
        across = i % blocks_across_width
        unpadded = cols_per_block
        if across == blocks_across_width - 1:
            unpadded = cols_per_block - (ceil_div(width, shard_w) * shard_w - width)
        blocks = blocks_per_core
        if i // blocks_across_width == num_shards_high - 1:
            blocks -= (num_shards_high * shard_h - height) // TILE
        reader_rt[core.x][core.y] = [i, blocks]
        col = across * cols_per_block
        writer_rt[core.x][core.y] = [blocks, (i // blocks_across_width) * blocks_per_core, unpadded, col // width,
                                     col % width]  # fmt: skip
        compute_rt[core.x][core.y] = [blocks]
    all_cores = ranges_of(cores)
    kernels = [
        metal2(UNTILIZE + "dataflow/reader_unary_sharded_blocks.cpp", all_cores, ttnn.ReaderConfigDescriptor(),
               cta=[("tiles_per_block", tiles_per_block)], rta_names=["start_shard_id", "num_blocks"], rt=reader_rt,
               dfbs={"in": SRC0}, tensors=[("src", src)]),
        metal2(UNTILIZE + "dataflow/writer_unary_stick_layout_split_rows_multi_core.cpp", all_cores,
               ttnn.WriterConfigDescriptor(),
               cta=[("tile_height", TILE), ("num_tiles_per_input_block", tiles_per_block),
                    ("num_output_blocks_across_width", 1), ("output_element_size", 2),
                    ("num_cols_per_input_block", cols_per_block), ("num_cols_per_output_block", width)],
               rta_names=["num_input_blocks_to_process", "height_wise_input_block_start_index",
                          "num_unpadded_cols_per_input_block", "width_wise_output_block_start_index",
                          "num_cols_already_processed_in_first_output_block"], rt=writer_rt,
               dfbs={"out": OUT}, tensors=[("dst", dst)]),
        metal2(UNTILIZE + "compute/untilize_variable_num_blocks_metal2.cpp", all_cores, ttnn.ComputeConfigDescriptor(),
               cta=[("per_core_block_tile_cnt", tiles_per_block)], rta_names=["per_core_block_cnt"], rt=compute_rt,
               dfbs={"src": SRC0, "out": OUT}),
    ]  # fmt: skip
    cbs = [dfb(SRC0, src.dtype, TILE_BYTES, entries, all_cores), dfb(OUT, dst.dtype, TILE_BYTES, entries, all_cores)]
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)), len(cores)


def check_untilize_of_height_shards(device, program, shape, shard_rows, ncores, seed):
    """Untilizes a height-sharded tile tensor on cores (0..ncores-1, 0) into DRAM rows with `program`,
    which must use all ncores; the rows must be the input's values exactly."""
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(ncores - 1, 0))])
    memory = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                               ttnn.ShardSpec(grid, [shard_rows, shape[-1]], ttnn.ShardOrientation.ROW_MAJOR))
    check_untilize_of_shards(device, program, shape, memory, ncores, seed)


def check_untilize_of_shards(device, program, shape, memory, ncores, seed):
    """Untilizes a tile tensor sharded as `memory` says into DRAM rows with `program`, which must use
    ncores cores; the rows must be the input's values exactly."""
    values = np.random.default_rng(seed).uniform(-4.0, 4.0, size=shape).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=memory)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    out, used = program(src, dst)
    assert used == ncores
    np.testing.assert_array_equal(ttnn.to_numpy(out), ttnn.to_numpy(src))
    assert_close(ttnn.to_numpy(out), values)


@pytest.mark.parametrize("shape,shard_rows,ncores", [((5 * TILE, 64), 64, 3), ((2, 96, 96), 128, 2)],
                         ids=["5-tile-rows-in-shards-of-2", "6-tile-rows-in-shards-of-4"])  # fmt: skip
def test_untilize_sharded_uneven(device, shape, shard_rows, ncores):
    """160 rows in shards of 64 on 3 cores (the last holds 32), 2 x 96 rows in shards of 128 on 2."""
    check_untilize_of_height_shards(device, untilize_sharded_uneven, shape, shard_rows, ncores, 13)


ND_READER = ("ttnn/cpp/ttnn/operations/data_movement/sharded/device/kernels/dataflow/"
             "reader_unary_nd_sharded_blocks_metal2.cpp")  # fmt: skip


def untilize_nd_shard_input(src, dst):
    """UntilizeMultiCoreNDShardInputProgramFactory ("untilize_multi_core_nd_shard_input"): the cores
    with data in order, core i starting at shard i and taking every num_cores-th shard after it; a
    block is a shard-wide tile row; each core's block count is its shards' tile rows inside the tensor;
    the ND-sharded block reader, untilize_variable_num_blocks_metal2.cpp and the ND-shard writer,
    which walks the input's shard pages (tensor src) to place each block of the interleaved output.
    ttnn picks this factory for an input with an ND shard spec and no 2-D one (ND_SHARDED); a
    height-sharded input, one shard a core, has the same distribution and args as an ND shard spec of
    [shard height, width], which lets its last shard be partial (ND shards here are whole)."""
    mc = src.memory_config()
    width = src.padded_shape[-1]
    height = int(np.prod(src.padded_shape)) // width
    if mc.nd_shard_spec is not None:
        shard, grid = mc.nd_shard_spec.shard_shape, mc.nd_shard_spec.grid
        shard_h, shard_w = int(np.prod(shard[:-1])), shard[-1]
        num_shards = int(np.prod([ceil_div(t, s) for t, s in zip(src.padded_shape, shard)]))
    else:
        (shard_h, shard_w), grid = mc.shard_spec.shape, mc.shard_spec.grid
        num_shards = ceil_div(height, shard_h) * ceil_div(width, shard_w)
    cores = corerange_to_cores(grid, row_wise=True)[:num_shards]
    tiles_per_block = shard_w // TILE
    blocks_per_shard = shard_h // TILE
    entries = tiles_per_block if blocks_per_shard == 1 else 2 * tiles_per_block
    reader_rt, writer_rt, compute_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for i, core in enumerate(cores):
        # a shard's tile rows inside the tensor: all of them but in a partial last row of 2-D shards
        blocks = sum(min(blocks_per_shard, max(0, height // TILE - (s // ceil_div(width, shard_w)) * blocks_per_shard))
                     if mc.nd_shard_spec is None else blocks_per_shard
                     for s in range(i, num_shards, len(cores)))  # fmt: skip
        reader_rt[core.x][core.y] = [i]
        writer_rt[core.x][core.y] = [i]
        compute_rt[core.x][core.y] = [blocks]
    all_cores = ranges_of(cores)
    kernels = [
        metal2(ND_READER, all_cores, ttnn.ReaderConfigDescriptor(),
               cta=[("num_tiles_per_input_block", tiles_per_block), ("num_shards", num_shards),
                    ("num_cores", len(cores))],
               rta_names=["start_shard_id"], rt=reader_rt, dfbs={"in": SRC0}, tensors=[("src", src)]),
        metal2(UNTILIZE + "dataflow/writer_unary_stick_layout_split_rows_multi_core_nd_shard.cpp", all_cores,
               ttnn.WriterConfigDescriptor(),
               cta=[("tile_height", TILE), ("num_tiles_per_input_block", tiles_per_block),
                    ("num_output_blocks_across_width", 1), ("output_element_size", 2),
                    ("num_cols_per_input_block", tiles_per_block * TILE), ("num_cols_per_output_block", width),
                    ("num_shards", num_shards), ("num_cores", len(cores)), ("num_tiles_per_row", width // TILE),
                    ("tile_width", TILE), ("output_tensor_width", width), ("output_tensor_height", height)],
               rta_names=["start_shard_id"], rt=writer_rt, dfbs={"out": OUT}, tensors=[("dst", dst), ("src", src)]),
        metal2(UNTILIZE + "compute/untilize_variable_num_blocks_metal2.cpp", all_cores, ttnn.ComputeConfigDescriptor(),
               cta=[("per_core_block_tile_cnt", tiles_per_block)], rta_names=["per_core_block_cnt"], rt=compute_rt,
               dfbs={"src": SRC0, "out": OUT}),
    ]  # fmt: skip
    cbs = [dfb(SRC0, src.dtype, TILE_BYTES, entries, all_cores), dfb(OUT, dst.dtype, TILE_BYTES, entries, all_cores)]
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)), len(cores)


@pytest.mark.parametrize("shape,shard_rows,ncores", [((5 * TILE, 64), 64, 3), ((2, 64, 96), 32, 4)],
                         ids=["5-tile-rows-in-shards-of-2", "4-tile-rows-in-shards-of-1"])  # fmt: skip
def test_untilize_nd_shard_input(device, shape, shard_rows, ncores):
    """160 rows in shards of 64 on 3 cores (the last shard partial), 2 x 64 rows one tile row a core."""
    check_untilize_of_height_shards(device, untilize_nd_shard_input, shape, shard_rows, ncores, 14)


@pytest.mark.parametrize("shape,shard_shape,ncores", [((2, 64, 128), (1, 64, 64), 4), ((3, 2, 32, 64), (1, 2, 32, 32), 6),
                                                      ((2, 96, 64), (2, 32, 64), 3)],
                         ids=["batch-by-half-width", "rank-4-half-width", "two-batches-a-shard"])  # fmt: skip
def test_untilize_nd_shard_input_nd_spec(device, shape, shard_shape, ncores):
    """The input as the factory is chosen for: an ND shard spec (MemoryConfig(L1, NdShardSpec)) with no
    2-D equivalent. [1, 64, 64] cuts 2 x 64 x 128 into 4 shards (batch by half width); the last, [2, 32,
    64] on 2 x 96 x 64, puts rows of both batches in each shard, so a shard's rows are not contiguous."""
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(ncores - 1, 0))])
    memory = ttnn.MemoryConfig(ttnn.BufferType.L1, ttnn.NdShardSpec(ttnn.Shape(list(shard_shape)), grid))
    assert memory.memory_layout == ttnn.TensorMemoryLayout.ND_SHARDED
    check_untilize_of_shards(device, untilize_nd_shard_input, shape, memory, ncores, 15)
