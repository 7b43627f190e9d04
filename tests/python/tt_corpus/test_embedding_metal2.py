"""Corpus: embedding as ttnn 0.81.1's EmbeddingsRMProgramFactory ("embeddings_rm") builds its
ProgramSpec (GENERIC embeddings, uint32 indices, row-major bf16 weights and output, interleaved in
DRAM), kernels unchanged from the reference tree, checked exactly against
torch.nn.functional.embedding.

The output rows (one per index, batch by batch) are split over the grid column by column. Each
core's reader reads the indices a DRAM-aligned block at a time into its scratchpad scratch::in1,
fetches each index's weight row into dfb in0, and the Metal 2.0 row writer writes the rows out
from the core's first one on."""
import pytest
import torch

import ditmk.ttnn as ttnn
from layout_factories import corerange_to_cores, dfb, metal2

pytestmark = pytest.mark.tt_corpus

READER = "ttnn/cpp/ttnn/operations/embedding/device/kernels/dataflow/embeddings.cpp"
WRITER = "ttnn/cpp/ttnn/kernel/dataflow/writer_unary_stick_layout_interleaved_start_id_metal2.cpp"
OUTPUT = 0
DRAM_ALIGNMENT = 64  # the index tensor's buffer alignment on Blackhole


def align(value, to):
    return -(-value // to) * to


def embeddings_rm_program(indices, weights, out, **options):
    device = out.device()
    batch, per_batch = indices.padded_shape[0], indices.padded_shape[-1]
    index_bytes, weight_row = 4, weights.padded_shape[-1] * 2
    block_height = DRAM_ALIGNMENT // index_bytes
    chunk = align(weight_row, DRAM_ALIGNMENT)
    num_rows = batch * per_batch
    _, all_cores, group_1, _, rows_1, rows_2 = ttnn.split_work_to_cores(device.compute_with_storage_grid_size(),
                                                                        num_rows)  # fmt: skip
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    offset = 0
    for i, core in enumerate(corerange_to_cores(all_cores)):
        n = rows_1 if i < group_1.num_cores() else rows_2
        in_batch = offset % per_batch
        reader_rt[core.x][core.y] = [offset // per_batch, in_batch // block_height * block_height * index_bytes, n,
                                     in_batch % block_height]  # fmt: skip
        writer_rt[core.x][core.y] = [out.padded_shape[-1] * 2, n, offset]
        offset += n
    assert offset == num_rows
    kernels = [
        metal2(READER, all_cores, ttnn.ReaderConfigDescriptor(), defines=[("GENERIC", "1"), ("UINT32", "1")],
               cta=[("input_page_size", per_batch * index_bytes), ("weight_stick_size", weight_row),
                    ("rows_per_block", block_height), ("input_block_size_bytes", block_height * index_bytes),
                    ("chunk_size", chunk), ("num_chunks", 1), ("last_chunk_size", chunk)],
               rta_names=["batch_offset", "weights_offset", "num_rows", "index_idx"], rt=reader_rt,
               dfbs={"in0": OUTPUT}, tensors=[("input", indices), ("weights", weights)],
               scratchpads={"in1": block_height * align(index_bytes, 32)}),
        metal2(WRITER, all_cores, ttnn.WriterConfigDescriptor(), rta_names=["stick_size", "num_sticks", "start_id"],
               rt=writer_rt, dfbs={"out0": OUTPUT}, tensors=[("dst", out)]),
    ]  # fmt: skip
    entries = 2 if max(rows_1, rows_2) > 1 else 1
    cbs = [dfb(OUTPUT, weights.dtype, chunk, entries, all_cores)]
    return ttnn.generic_op([indices, weights, out], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs),
                           **options)


def run_case(device, batch, seq, vocab, dim, **options):
    g = torch.Generator().manual_seed(41)
    idx = torch.randint(0, vocab, (batch, seq), generator=g, dtype=torch.int32)
    table = torch.randn(1, 1, vocab, dim, generator=g).to(torch.bfloat16)
    indices = ttnn.from_torch(idx, dtype=ttnn.uint32, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                              memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    weights = ttnn.from_torch(table, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                              memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    out = ttnn.allocate_tensor_on_device(ttnn.Shape([batch, seq, dim]), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    want = torch.nn.functional.embedding(idx.long(), table[0, 0])
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
