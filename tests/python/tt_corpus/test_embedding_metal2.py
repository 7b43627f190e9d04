"""Corpus: embedding as ttnn 0.81.1's embedding factories build their ProgramSpecs (GENERIC
embeddings, uint32 indices, bf16 weights, interleaved in DRAM), kernels unchanged from the reference
tree, checked exactly against torch.nn.functional.embedding.

EmbeddingsRMProgramFactory ("embeddings_rm", row-major indices, weights and output): the output rows
(one per index, batch by batch) are split over the grid column by column. Each core's reader reads
the indices a DRAM-aligned block at a time into its scratchpad scratch::in1, fetches each index's
weight row into dfb in0, and the Metal 2.0 row writer writes the rows out from the core's first one
on. A weight row wider than the factory's 1 MiB staging budget goes through dfb in0 in 1 MiB chunks,
and the chunked row writer (embeddings_rm_writer_chunked.cpp) writes each chunk at its offset in the
row.

EmbeddingsFusedProgramFactory ("embeddings_fused", row-major indices and weights, TILE output): the
output's blocks of 32 rows are split over the grid column by column. The reader
(embeddings_tilize.cpp) stages each block's 32 weight rows in dfb in0 one chunk of tiles at a time,
the compute kernel of the core's group tilizes them into dfb out (the shared tilize_metal2.cpp, or
tilize_chunked.cpp when a block's tiles double-buffered exceed the 1 MiB budget: chunks of 64 tiles,
the last one partial) and the Metal 2.0 tile writer writes the core's tiles out.

EmbeddingsTilizedIndicesProgramFactory (TILE indices, row-major weights and output): the indices are
split over cores in multiples of a face row (16 indices); the reader (embedding_ind_tilized.cpp)
reads a whole tile of indices into its scratchpad scratch::in1, walks it face row by face row and
fetches one weight row per index into dfb in0, and the Metal 2.0 row writer writes the rows out."""
import pytest
import torch

import ditmk.ttnn as ttnn
from layout_factories import corerange_to_cores, dfb, grid_to_cores, metal2, split_work_to_cores_aligned

pytestmark = pytest.mark.tt_corpus

EMBEDDING = "ttnn/cpp/ttnn/operations/embedding/device/kernels/"
READER = EMBEDDING + "dataflow/embeddings.cpp"
WRITER = "ttnn/cpp/ttnn/kernel/dataflow/writer_unary_stick_layout_interleaved_start_id_metal2.cpp"
CHUNKED_WRITER = EMBEDDING + "dataflow/embeddings_rm_writer_chunked.cpp"
TILIZE_READER = EMBEDDING + "dataflow/embeddings_tilize.cpp"
TILIZED_INDEX_READER = EMBEDDING + "dataflow/embedding_ind_tilized.cpp"
TILIZE_CHUNKED = EMBEDDING + "compute/tilize_chunked.cpp"
TILIZE = "ttnn/cpp/ttnn/kernel/compute/tilize_metal2.cpp"
TILE_WRITER = ("ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/"
               "writer_unary_interleaved_start_id_metal2.cpp")
OUTPUT = 0
DRAM_ALIGNMENT = 64  # the index tensor's buffer alignment on Blackhole
L1_BUDGET = 1024 * 1024  # the factories' staging budget per core
MAX_DOUBLE_BUFFER_TILES = 64
TILE, FACE = 32, 16
TILE_BYTES = TILE * TILE * 2  # a bf16 tile
INDEX_BYTES = 4  # uint32 indices
GENERIC_UINT32 = [("GENERIC", "1"), ("UINT32", "1")]  # EmbeddingsType::GENERIC, EmbeddingsIndexType::UINT32


def align(value, to):
    return -(-value // to) * to


def embeddings_rm_program(indices, weights, out, **options):
    device = out.device()
    batch, per_batch = indices.padded_shape[0], indices.padded_shape[-1]
    weight_row = weights.padded_shape[-1] * 2
    block_height = DRAM_ALIGNMENT // INDEX_BYTES
    row = align(weight_row, DRAM_ALIGNMENT)
    chunked = row > L1_BUDGET
    chunk = L1_BUDGET // DRAM_ALIGNMENT * DRAM_ALIGNMENT if chunked else row
    num_chunks = -(-row // chunk)
    last_chunk = row - (num_chunks - 1) * chunk
    num_rows = batch * per_batch
    _, all_cores, group_1, _, rows_1, rows_2 = ttnn.split_work_to_cores(device.compute_with_storage_grid_size(),
                                                                        num_rows)  # fmt: skip
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    offset = 0
    for i, core in enumerate(corerange_to_cores(all_cores)):
        n = rows_1 if i < group_1.num_cores() else rows_2
        in_batch = offset % per_batch
        reader_rt[core.x][core.y] = [offset // per_batch, in_batch // block_height * block_height * INDEX_BYTES, n,
                                     in_batch % block_height]  # fmt: skip
        writer_rt[core.x][core.y] = [n, offset] if chunked else [out.padded_shape[-1] * 2, n, offset]
        offset += n
    assert offset == num_rows
    chunking = [("chunk_size", chunk), ("num_chunks", num_chunks), ("last_chunk_size", last_chunk)]
    if chunked:
        writer = metal2(CHUNKED_WRITER, all_cores, ttnn.WriterConfigDescriptor(), cta=chunking,
                        rta_names=["num_sticks", "start_id"], rt=writer_rt, dfbs={"out0": OUTPUT},
                        tensors=[("dst", out)])  # fmt: skip
    else:
        writer = metal2(WRITER, all_cores, ttnn.WriterConfigDescriptor(),
                        rta_names=["stick_size", "num_sticks", "start_id"], rt=writer_rt, dfbs={"out0": OUTPUT},
                        tensors=[("dst", out)])  # fmt: skip
    kernels = [
        metal2(READER, all_cores, ttnn.ReaderConfigDescriptor(), defines=GENERIC_UINT32,
               cta=[("input_page_size", per_batch * INDEX_BYTES), ("weight_stick_size", weight_row),
                    ("rows_per_block", block_height), ("input_block_size_bytes", block_height * INDEX_BYTES)]
               + chunking,
               rta_names=["batch_offset", "weights_offset", "num_rows", "index_idx"], rt=reader_rt,
               dfbs={"in0": OUTPUT}, tensors=[("input", indices), ("weights", weights)],
               scratchpads={"in1": block_height * align(INDEX_BYTES, 32)}),
        writer,
    ]  # fmt: skip
    entries = 2 if max(rows_1, rows_2) > 1 else 1
    cbs = [dfb(OUTPUT, weights.dtype, chunk, entries, all_cores)]
    return ttnn.generic_op([indices, weights, out], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs),
                           **options)


def embeddings_fused_program(indices, weights, out):
    """EmbeddingsFusedProgramFactory, interleaved output. DataflowBuffers in the spec's order: the
    weights staging buffer (dfb 0) and the output tiles (dfb 1); the index block is a scratchpad."""
    staging, tiles = 0, 1
    device = out.device()
    batch, per_batch = indices.padded_shape[0], indices.padded_shape[-1]
    weight_row = weights.padded_shape[-1] * 2
    num_blocks, blocks_per_batch = batch * per_batch // TILE, per_batch // TILE
    tiles_per_block = weights.padded_shape[-1] // TILE
    _, all_cores, group_1, group_2, blocks_1, blocks_2 = ttnn.split_work_to_cores(
        device.compute_with_storage_grid_size(), num_blocks)
    chunked = 2 * tiles_per_block * TILE_BYTES > L1_BUDGET
    if chunked:
        per_chunk = min(max(min(L1_BUDGET // TILE_BYTES, tiles_per_block), 1), MAX_DOUBLE_BUFFER_TILES)
        num_chunks = -(-tiles_per_block // per_chunk)
        last_chunk = tiles_per_block - (num_chunks - 1) * per_chunk
        buffering = 1 if per_chunk > MAX_DOUBLE_BUFFER_TILES else 2
    else:
        per_chunk, num_chunks, last_chunk = tiles_per_block, 1, tiles_per_block
        buffering = 1 if tiles_per_block > MAX_DOUBLE_BUFFER_TILES else 2
    index_block = TILE * INDEX_BYTES
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    block, tile = 0, 0
    for i, core in enumerate(corerange_to_cores(all_cores)):
        n = blocks_1 if i < group_1.num_cores() else blocks_2
        reader_rt[core.x][core.y] = [block // blocks_per_batch, block % blocks_per_batch * index_block, 0, n]
        writer_rt[core.x][core.y] = [tiles_per_block * n, tile]
        tile += tiles_per_block * n
        block += n
    assert block == num_blocks
    kernels = [
        metal2(TILIZE_READER, all_cores, ttnn.ReaderConfigDescriptor(), defines=GENERIC_UINT32,
               cta=[("input_page_size", per_batch * INDEX_BYTES), ("weight_block_size", weight_row),
                    ("tiles_per_chunk", per_chunk), ("input_block_size_bytes", index_block),
                    ("num_chunks", num_chunks), ("last_chunk_tiles", last_chunk)],
               rta_names=["input_start_id", "input_start_offset", "weight_offset", "num_blocks"], rt=reader_rt,
               dfbs={"in0": staging}, tensors=[("input", indices), ("weights", weights)],
               scratchpads={"in1": index_block}),
        metal2(TILE_WRITER, all_cores, ttnn.WriterConfigDescriptor(), rta_names=["num_pages", "start_id"],
               rt=writer_rt, dfbs={"out": tiles}, tensors=[("dst", out)]),
    ]  # fmt: skip
    for group, n in [(group_1, blocks_1), (group_2, blocks_2)]:
        if n == 0 or group.num_cores() == 0:
            continue
        if chunked:
            cta = [("per_core_block_cnt", n), ("tiles_per_chunk", per_chunk), ("num_chunks", num_chunks),
                   ("last_chunk_tiles", last_chunk)]  # fmt: skip
        else:
            cta = [("per_core_block_cnt", n), ("per_core_block_tile_cnt", per_chunk)]
        kernels.append(metal2(TILIZE_CHUNKED if chunked else TILIZE, group, ttnn.ComputeConfigDescriptor(), cta=cta,
                              dfbs={"in": staging, "out": tiles}))  # fmt: skip
    cbs = [dfb(staging, weights.dtype, TILE_BYTES, buffering * per_chunk, all_cores),
           dfb(tiles, out.dtype, TILE_BYTES, buffering * per_chunk, all_cores)]  # fmt: skip
    return ttnn.generic_op([indices, weights, out], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


def embeddings_tilized_indices_program(indices, weights, out):
    """EmbeddingsTilizedIndicesProgramFactory: one DataflowBuffer, the weight rows the reader stages
    and the writer drains (dfb 0); the index tile is a scratchpad of the factory's 16 entries of 32 B."""
    device = out.device()
    rows, cols = indices.shape[0], indices.shape[-1]
    weight_row = weights.padded_shape[-1] * 2
    grid = device.compute_with_storage_grid_size()
    needed, all_cores, per_core, last = split_work_to_cores_aligned(grid, rows * cols, FACE)
    tiles_per_row = -(-cols // TILE)
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    done = 0
    for i, core in enumerate(grid_to_cores(needed, grid.x, grid.y)):
        n = per_core if i < needed - 1 else last
        row, col = done // cols, done % cols
        face_offset = (row % TILE) // FACE * 2 * FACE * FACE + row % FACE * FACE + col % TILE // FACE * FACE * FACE
        first_tile = row // TILE * tiles_per_row + col // TILE
        reader_rt[core.x][core.y] = [first_tile, face_offset, n, col, col % FACE]
        writer_rt[core.x][core.y] = [out.padded_shape[-1] * 2, n, done]
        done += n
    assert done == rows * cols
    defines = GENERIC_UINT32 + ([("ONLY_ONE_FACE_COLUMN", "1")] if cols <= FACE else [])
    kernels = [
        metal2(TILIZED_INDEX_READER, all_cores, ttnn.ReaderConfigDescriptor(), defines=defines,
               cta=[("weight_stick_size", weight_row), ("row_length", cols)],
               rta_names=["tile_offset", "face_offset", "num_rows", "curr_col", "starting_index"], rt=reader_rt,
               dfbs={"in0": OUTPUT}, tensors=[("input", indices), ("weights", weights)],
               scratchpads={"in1": FACE * align(INDEX_BYTES, 32)}),
        metal2(WRITER, all_cores, ttnn.WriterConfigDescriptor(), rta_names=["stick_size", "num_sticks", "start_id"],
               rt=writer_rt, dfbs={"out0": OUTPUT}, tensors=[("dst", out)]),
    ]  # fmt: skip
    cbs = [dfb(OUTPUT, weights.dtype, align(weight_row, DRAM_ALIGNMENT), 2, all_cores)]
    return ttnn.generic_op([indices, weights, out], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


def _inputs(device, batch, seq, vocab, dim, index_layout=ttnn.ROW_MAJOR_LAYOUT):
    g = torch.Generator().manual_seed(41)
    idx = torch.randint(0, vocab, (batch, seq), generator=g, dtype=torch.int32)
    table = torch.randn(1, 1, vocab, dim, generator=g).to(torch.bfloat16)
    indices = ttnn.from_torch(idx, dtype=ttnn.uint32, layout=index_layout, device=device,
                              memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    weights = ttnn.from_torch(table, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                              memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    return indices, weights, torch.nn.functional.embedding(idx.long(), table[0, 0])


def _output(device, batch, seq, dim, layout):
    return ttnn.allocate_tensor_on_device(ttnn.Shape([batch, seq, dim]), ttnn.bfloat16, layout, device,
                                          ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip


def run_case(device, batch, seq, vocab, dim, **options):
    indices, weights, want = _inputs(device, batch, seq, vocab, dim)
    out = _output(device, batch, seq, dim, ttnn.ROW_MAJOR_LAYOUT)
    got = ttnn.to_torch(embeddings_rm_program(indices, weights, out, **options))
    assert torch.equal(got.to(torch.bfloat16), want)


@pytest.mark.parametrize("batch,seq,vocab,dim", [
    (2, 32, 50, 64),    # 64 rows, one per core: each core starts inside a block of 16 indices
    (4, 48, 300, 96),   # 192 rows: two on each of 82 cores, one on 28; 192 B weight rows
], ids=["64-rows", "192-rows"])  # fmt: skip
def test_embeddings_rm(device, batch, seq, vocab, dim):
    run_case(device, batch, seq, vocab, dim)


def test_embeddings_rm_row_not_a_block_multiple(device):
    """24 indices per row (96 B): the reader reads the indices in whole 64 B blocks (16 uint32), so its
    second block runs 32 B past the row into the DRAM page's alignment padding, bytes no one wrote.
    The chip reads whatever they hold and the kernel ignores them: a warning, a fault when strict."""
    run_case(device, 2, 24, 50, 64)
    assert any("alignment padding of DRAM buffer" in w for w in device.last_report["warnings"])
    with pytest.raises(ttnn.KernelFault, match="alignment padding; strict"):
        run_case(device, 2, 24, 50, 64, strict=True)


def test_embeddings_rm_chunked(device):
    """Weight rows of 524,320 bf16 (1 MiB + 64 B) go through dfb in0 in two chunks, 1 MiB and 64 B;
    32 rows, one per core (a second row per core would need two 1 MiB entries, more than L1 holds)."""
    run_case(device, 2, 16, 6, 512 * 1024 + 32)


def run_fused_case(device, batch, seq, vocab, dim):
    indices, weights, want = _inputs(device, batch, seq, vocab, dim)
    out = _output(device, batch, seq, dim, ttnn.TILE_LAYOUT)
    got = ttnn.to_torch(embeddings_fused_program(indices, weights, out))
    assert torch.equal(got.to(torch.bfloat16), want)


@pytest.mark.parametrize("batch,seq,vocab,dim", [
    (2, 64, 70, 64),      # 4 blocks of 32 rows, one per core; 2 tiles per block
    (3, 1248, 90, 32),    # 117 blocks (3 batches of 39): two on each of 7 cores, one on 103
], ids=["4-blocks", "117-blocks"])  # fmt: skip
def test_embeddings_fused(device, batch, seq, vocab, dim):
    run_fused_case(device, batch, seq, vocab, dim)


@pytest.mark.parametrize("dim", [
    260 * TILE,   # 260 tiles per block: four chunks of 64 and a last one of 4 (tilize_chunked's per-block loop)
    320 * TILE,   # 320 tiles per block: five whole chunks of 64 (tilize_chunked's single call)
], ids=["partial-last-chunk", "whole-chunks"])  # fmt: skip
def test_embeddings_fused_chunked(device, dim):
    run_fused_case(device, 1, 64, 12, dim)


@pytest.mark.xfail(strict=True, raises=ttnn.KernelFault, reason=(
    "the reader reads each tile of indices whole (input.get_aligned_page_size(): 4096 B of uint32) into "
    "scratch::in1, which the factory sizes for one face row (16 x 32 B = 512 B); on the chip the other 3.5 KiB "
    "land in L1 above the program's buffers, ditmk faults the NoC read's write past the scratchpad "
    "(out_of_bounds: outside every CB, semaphore and L1 buffer of the core)"))
def test_embeddings_tilized_indices(device):
    """2048 indices [32, 64]: 32 on each of 64 cores, each core half a row (two faces of one face row
    pair). Given a scratchpad of a whole tile the reader and writer produce torch's rows exactly."""
    indices, weights, want = _inputs(device, 32, 64, 40, 64, index_layout=ttnn.TILE_LAYOUT)
    out = _output(device, 32, 64, 64, ttnn.ROW_MAJOR_LAYOUT)
    got = ttnn.to_torch(embeddings_tilized_indices_program(indices, weights, out))
    assert torch.equal(got.to(torch.bfloat16), want)
