"""Corpus: concat of tile tensors as ttnn 0.81.1's ConcatProgramFactory ("concat") builds its
ProgramSpec, kernels unchanged from the reference tree, checked exactly against torch.cat.

The reader names its inputs only through the tensor binding sequence tensor::inputs (a std::tuple
of the bindings in0, in1, ...; KernelAdvancedOptions::tensor_binding_sequences) and reads, per core,
two runtime vararg blocks after its named args: each input's pages per block, then each input's
first page on this core. The output's pages are split over the device grid column by column."""
import numpy as np
import pytest
import torch

import ditmk.ttnn as ttnn
from layout_factories import TILE, TILE_BYTES, dfb, metal2

pytestmark = pytest.mark.tt_corpus

CONCAT = "ttnn/cpp/ttnn/operations/data_movement/concat/device/kernels/dataflow/"
TILE_WRITER = "ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id_metal2.cpp"
SRC0 = 0  # the one DataflowBuffer, "src0": the reader produces it as dfb::in, the writer consumes it as dfb::out


def _blocks(inputs, out, dim):
    """Pages of each input per output block, as the factory counts them for tile tensors: a block is
    everything past `dim`, in tiles (the last two dims count 32 rows or columns per tile)."""
    nd = len(out.padded_shape)
    scale = TILE if dim >= nd - 2 else 1
    accum = int(np.prod(out.padded_shape[dim + 1:]))
    if dim < nd - 2:
        accum //= TILE * TILE
    elif dim == nd - 2:
        accum //= TILE
    return [accum * (t.padded_shape[dim] // scale) for t in inputs]


def _start(per_block, written):
    """The factory's cursor at output page `written`: (start tensor, its id in the block, first page
    of each input)."""
    out_per_block = sum(per_block)
    block, rest = divmod(written, out_per_block)
    curr_tensor, curr_id, page_ids = 0, 0, []
    for j, pages in enumerate(per_block):
        page_ids.append(block * pages)
        if rest == 0:
            continue
        if rest >= pages:
            page_ids[j] += pages
            rest -= pages
            curr_tensor = j + 1
        else:
            page_ids[j] += rest
            curr_tensor, curr_id, rest = j, rest, 0
    return curr_tensor, curr_id, page_ids


def concat_program(inputs, out, dim):
    device = out.device()
    grid = device.compute_with_storage_grid_size()
    num_pages = int(np.prod(out.padded_shape)) // (TILE * TILE)
    num_cores, all_cores, group_1, _, per_core_1, per_core_2 = ttnn.split_work_to_cores(grid, num_pages)
    cores = [ttnn.CoreCoord(i // grid.y, i % grid.y) for i in range(num_cores)]  # grid_to_cores, column-major
    per_block = _blocks(inputs, out, dim)
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    written = 0
    for i, core in enumerate(cores):
        n = per_core_1 if i < group_1.num_cores() else per_core_2
        tensor, tensor_id, page_ids = _start(per_block, written)
        reader_rt[core.x][core.y] = [n, tensor, tensor_id] + per_block + page_ids
        writer_rt[core.x][core.y] = [n, written]
        written += n
    assert written == num_pages
    names = [f"in{i}" for i in range(len(inputs))]
    kernels = [
        metal2(CONCAT + "reader_concat_interleaved_start_id.cpp", all_cores, ttnn.ReaderConfigDescriptor(),
               rta_names=["num_tiles", "start_tensor", "start_tensor_id"], rt=reader_rt, dfbs={"in": SRC0},
               tensors=list(zip(names, inputs)), tensor_sequences={"inputs": names}),
        metal2(TILE_WRITER, all_cores, ttnn.WriterConfigDescriptor(), rta_names=["num_pages", "start_id"],
               rt=writer_rt, dfbs={"out": SRC0}, tensors=[("dst", out)]),
    ]  # fmt: skip
    cbs = [dfb(SRC0, out.dtype, TILE_BYTES, 2, all_cores)]
    return ttnn.generic_op(list(inputs) + [out], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


CASES = {
    # width: 20 output tiles, one per core
    "width-2": ([(1, 2, 64, 64), (1, 2, 64, 96)], 3),
    # height, three inputs: 120 output tiles, two on each of 10 cores and one on the other 100
    "height-3": ([(1, 1, 128, 320), (1, 1, 64, 320), (1, 1, 192, 320)], 2),
    # channels: whole 2x2-tile slabs per input
    "channels-2": ([(2, 1, 64, 64), (2, 3, 64, 64)], 1),
}


@pytest.mark.parametrize("case", list(CASES))
def test_concat_tiles(device, case):
    shapes, dim = CASES[case]
    g = torch.Generator().manual_seed(21)
    xs = [torch.randn(*s, generator=g).to(torch.bfloat16) for s in shapes]
    ts = [ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG) for x in xs]  # fmt: skip
    want = torch.cat(xs, dim)
    out = ttnn.allocate_tensor_on_device(ttnn.Shape(list(want.shape)), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    got = ttnn.to_torch(concat_program(ts, out, dim))
    assert torch.equal(got.to(torch.bfloat16), want)
