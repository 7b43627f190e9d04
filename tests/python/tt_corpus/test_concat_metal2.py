"""Corpus: concat of tile tensors as ttnn 0.81.1's ConcatProgramFactory ("concat") builds its
ProgramSpec, kernels unchanged from the reference tree, checked exactly against torch.cat.

The reader names its inputs only through the tensor binding sequence tensor::inputs (a std::tuple
of the bindings in0, in1, ...; KernelAdvancedOptions::tensor_binding_sequences) and reads, per core,
two runtime vararg blocks after its named args: each input's pages per block, then each input's
first page on this core. The output's pages are split over the device grid column by column.

Row-major tensors take the same factory with the stick reader, whose per-input page sizes are
compile-time varargs, and the stick writer. Height-sharded width concat of two tensors:
ConcatS2SRMProgramFactory (rows; the one reader kernel on both data-movement processors) and
ConcatS2STiledProgramFactory (tiles; a compute kernel transposes tiles in and out around the
reader's row assembly), their shards' dfbs borrowing the tensors' L1 (CBs backed by them)."""
import numpy as np
import pytest
import torch

import ditmk.ttnn as ttnn
from layout_factories import TILE, TILE_BYTES, corerange_to_cores, dfb, metal2, ranges_of

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


RM_WRITER = "ttnn/cpp/ttnn/kernel/dataflow/writer_unary_stick_layout_interleaved_start_id_metal2.cpp"
DRAM_ALIGN = 64


def _row_blocks(inputs, out, dim):
    """Pages (rows) of each input per output block, as the factory counts them for row-major
    tensors: a width concat takes one row of every input per output row; otherwise a block is
    everything past `dim`, in rows."""
    nd = len(out.padded_shape)
    if dim == nd - 1:
        return [1 for _ in inputs]
    rows_after = int(np.prod(out.padded_shape[dim + 1:])) // out.padded_shape[-1]
    return [rows_after * t.padded_shape[dim] for t in inputs]


def concat_rows_program(inputs, out, dim):
    """ConcatProgramFactory for row-major tensors: the stick reader with each input's page size as a
    compile-time vararg (the reader picks it by an index it advances at run time), WIDTH_CONCAT for
    the last dim, and the stick writer; a dfb entry is an output row rounded up to DRAM's 64 B."""
    device = out.device()
    grid = device.compute_with_storage_grid_size()
    width = out.padded_shape[-1]
    num_pages = int(np.prod(out.padded_shape)) // width
    entry = -(-width * 2 // DRAM_ALIGN) * DRAM_ALIGN
    num_cores, all_cores, group_1, _, per_core_1, per_core_2 = ttnn.split_work_to_cores(grid, num_pages)
    cores = [ttnn.CoreCoord(i // grid.y, i % grid.y) for i in range(num_cores)]  # grid_to_cores, column-major
    per_block = _row_blocks(inputs, out, dim)
    width_concat = dim == len(out.padded_shape) - 1
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    written = 0
    for i, core in enumerate(cores):
        n = per_core_1 if i < group_1.num_cores() else per_core_2
        if width_concat:  # every block is one output row: each input's row `written`
            tensor, tensor_id, page_ids = 0, 0, [written for _ in inputs]
        else:
            tensor, tensor_id, page_ids = _start(per_block, written)
        reader_rt[core.x][core.y] = [n, tensor, tensor_id] + per_block + page_ids
        writer_rt[core.x][core.y] = [width * 2, n, written]
        written += n
    assert written == num_pages
    names = [f"in{i}" for i in range(len(inputs))]
    reader = metal2(CONCAT + "reader_concat_stick_layout_interleaved_start_id.cpp", all_cores,
                    ttnn.ReaderConfigDescriptor(), rta_names=["num_pages", "start_tensor", "start_tensor_id"],
                    rt=reader_rt, dfbs={"in": SRC0}, tensors=list(zip(names, inputs)),
                    tensor_sequences={"inputs": names}, defines=[("WIDTH_CONCAT", "1")] if width_concat else [])
    reader.compile_time_args = [t.padded_shape[-1] * 2 for t in inputs]  # compile-time varargs: page sizes
    kernels = [
        reader,
        metal2(RM_WRITER, all_cores, ttnn.WriterConfigDescriptor(), rta_names=["stick_size", "num_sticks", "start_id"],
               rt=writer_rt, dfbs={"out0": SRC0}, tensors=[("dst", out)]),
    ]  # fmt: skip
    cbs = [dfb(SRC0, out.dtype, entry, 2, all_cores)]
    return ttnn.generic_op(list(inputs) + [out], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


ROW_CASES = {
    # width: 150 output rows of 64 + 32 + 96 values, 2 rows on 40 cores and 1 on 70
    "width-3": ([(1, 1, 150, 64), (1, 1, 150, 32), (1, 1, 150, 96)], 3),
    # height: 2 x 140 rows of 48 values (96 B, an entry of 128 B)
    "height-3": ([(1, 2, 50, 48), (1, 2, 20, 48), (1, 2, 70, 48)], 2),
    # channels: whole 3-row slabs per input
    "channels-2": ([(2, 1, 3, 32), (2, 4, 3, 32)], 1),
}


@pytest.mark.parametrize("case", list(ROW_CASES))
def test_concat_rows(device, case):
    shapes, dim = ROW_CASES[case]
    g = torch.Generator().manual_seed(22)
    xs = [torch.randn(*s, generator=g).to(torch.bfloat16) for s in shapes]
    ts = [ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG) for x in xs]  # fmt: skip
    want = torch.cat(xs, dim)
    out = ttnn.allocate_tensor_on_device(ttnn.Shape(list(want.shape)), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    got = ttnn.to_torch(concat_rows_program(ts, out, dim))
    assert torch.equal(got.to(torch.bfloat16), want)


def _rows_sharded(shard_rows, width, num_cores):
    """L1 HEIGHT_SHARDED over the first `num_cores` cores of row 0, shards of `shard_rows` rows."""
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(num_cores - 1, 0))])
    spec = ttnn.ShardSpec(grid, [shard_rows, width], ttnn.ShardOrientation.ROW_MAJOR)
    return ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, spec)


def _borrowed(index, tensor, entry_size, entries, cores):
    """A DataflowBuffer borrowed from a sharded tensor (borrowed_from): a CB over its shard."""
    fmt = ttnn.CBFormatDescriptor(buffer_index=index, data_format=tensor.dtype, page_size=entry_size)
    return ttnn.CBDescriptor(total_size=entries * entry_size, core_ranges=cores, format_descriptors=[fmt],
                             buffer=tensor)  # fmt: skip


S2S_IN0, S2S_IN1, S2S_OUT = 0, 1, 16


def concat_s2s_rows_program(inputs, out):
    """ConcatS2SRMProgramFactory ("concat_s2s_rm"): the width concat of two row-major tensors
    height-sharded alike. reader_height_sharded_width_concat_two_tensors.cpp runs on both data-movement
    processors of every core, all its args compile-time: the first takes the first half of the
    shard's rows, the second the rest, each copying its rows of both inputs from their borrowed
    dfbs into place in the output's. When the rows do not fill the last shard, the last core is a
    work unit of its own with the remainder's counts."""
    spec = inputs[0].memory_config().shard_spec
    rows_per_core = spec.shape[0]
    num_rows = out.shape[-2]
    groups = 1
    s0, s1 = (t.shape[-1] * 2 for t in inputs)
    so = out.shape[-1] * 2
    cores = corerange_to_cores(spec.grid, row_wise=True)

    def args(rows, second):
        half = -(-rows // 2)
        start = half if second else 0
        return [("input_stick_size_0", s0), ("input_stick_size_1", s1), ("input_stride_0", so - s0),
                ("input_stride_1", so - s1), ("num_output_pages", rows * 2), ("page_start", start),
                ("page_end", rows if second else half), ("output_stick_offset", start * so),
                ("input_start_0", start * s0), ("input_start_1", start * s1), ("groups", groups)]  # fmt: skip

    last_rows = num_rows % rows_per_core
    units = [(ranges_of(cores[:-1]), rows_per_core), (ranges_of(cores[-1:]), last_rows)] if last_rows else \
        [(spec.grid, rows_per_core)]  # fmt: skip
    source = CONCAT + "reader_height_sharded_width_concat_two_tensors.cpp"
    dfbs = {"output": S2S_OUT, "input_0": S2S_IN0, "input_1": S2S_IN1}
    kernels = []
    for unit_cores, rows in units:
        kernels.append(metal2(source, unit_cores, ttnn.ReaderConfigDescriptor(), cta=args(rows, False), dfbs=dfbs))
        kernels.append(metal2(source, unit_cores, ttnn.WriterConfigDescriptor(), cta=args(rows, True), dfbs=dfbs))
    align32 = lambda n: -(-n // 32) * 32  # noqa: E731  round_up_to_mul32
    cbs = [_borrowed(S2S_IN0, inputs[0], align32(s0), rows_per_core, spec.grid),
           _borrowed(S2S_IN1, inputs[1], align32(s1), rows_per_core, spec.grid),
           _borrowed(S2S_OUT, out, align32(so), out.memory_config().shard_spec.shape[0], spec.grid)]  # fmt: skip
    return ttnn.generic_op(list(inputs) + [out], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("rows,widths,shard_rows,cores", [
    (128, (32, 64), 32, 4),    # whole shards: one work unit
    (100, (48, 16), 32, 4),    # the last shard holds 4 rows: a work unit of its own
], ids=["whole-shards", "last-shard-short"])  # fmt: skip
def test_concat_rows_height_sharded(device, rows, widths, shard_rows, cores):
    g = torch.Generator().manual_seed(23)
    xs = [torch.randn(rows, w, generator=g).to(torch.bfloat16) for w in widths]
    ts = [ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=_rows_sharded(shard_rows, x.shape[1], cores)) for x in xs]  # fmt: skip
    out = ttnn.allocate_tensor_on_device(ttnn.Shape([rows, sum(widths)]), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT,
                                         device, _rows_sharded(shard_rows, sum(widths), cores))  # fmt: skip
    got = ttnn.to_torch(concat_s2s_rows_program(ts, out))
    assert torch.equal(got.to(torch.bfloat16), torch.cat(xs, -1))


T_IN0, T_IN1, T_IN0_T, T_IN1_T, T_CONCAT, T_OUT_T, T_OUT = 0, 1, 2, 3, 4, 5, 16


def concat_s2s_tiles_program(inputs, out):
    """ConcatS2STiledProgramFactory ("concat_s2s_tiled"): the width concat of two bf16 tile tensors
    height-sharded alike, groups 1. Per tile row of the shard, the compute kernel transposes the
    inputs' tiles (pushed whole by the reader from their borrowed dfbs) into input0_transpose /
    input1_transpose, the reader lays them side by side in concat (one NoC read per input:
    USE_SINGLE_PACKET_READ, the strides being under Blackhole's 16 KiB burst), compute transposes
    the row back into output_transpose and the writer copies it into the output's shard."""
    spec = inputs[0].memory_config().shard_spec
    cores = spec.grid
    th = spec.shape[0] // TILE
    tw0, tw1 = (t.memory_config().shard_spec.shape[1] // TILE for t in inputs)
    common = [("input0_num_tiles_height", th), ("input0_num_tiles_width", tw0), ("input1_num_tiles_height", th),
              ("input1_num_tiles_width", tw1), ("tile_size", TILE_BYTES), ("groups", 1)]  # fmt: skip
    assert max(tw0, tw1) * TILE_BYTES <= 16384
    kernels = [
        metal2(CONCAT + "reader_height_sharded_width_concat_two_tensors_tiled.cpp", cores,
               ttnn.ReaderConfigDescriptor(), cta=common, defines=[("USE_SINGLE_PACKET_READ", "1")],
               dfbs={"input0": T_IN0, "input1": T_IN1, "input0_transpose": T_IN0_T, "input1_transpose": T_IN1_T,
                     "concat": T_CONCAT}),
        metal2(CONCAT + "writer_height_sharded_width_concat_two_tensors_tiled.cpp", cores,
               ttnn.WriterConfigDescriptor(), cta=common, dfbs={"output": T_OUT, "output_transpose": T_OUT_T}),
        metal2("ttnn/cpp/ttnn/operations/data_movement/concat/device/kernels/compute/"
               "height_sharded_width_concat_two_tensors.cpp", cores,
               ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4),
               cta=common + [("max_batch_size", 16 // 2)],
               dfbs={"input0": T_IN0, "input1": T_IN1, "input0_transpose": T_IN0_T, "input1_transpose": T_IN1_T,
                     "concat": T_CONCAT, "output_transpose": T_OUT_T}),
    ]  # fmt: skip
    cbs = [_borrowed(T_IN0, inputs[0], TILE_BYTES, th * tw0, cores),
           _borrowed(T_IN1, inputs[1], TILE_BYTES, th * tw1, cores),
           _borrowed(T_OUT, out, TILE_BYTES, th * (tw0 + tw1), cores),
           dfb(T_IN0_T, out.dtype, TILE_BYTES, tw0, cores), dfb(T_IN1_T, out.dtype, TILE_BYTES, tw1, cores),
           dfb(T_CONCAT, out.dtype, TILE_BYTES, tw0 + tw1, cores),
           dfb(T_OUT_T, out.dtype, TILE_BYTES, tw0 + tw1, cores)]  # fmt: skip
    return ttnn.generic_op(list(inputs) + [out], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("rows,widths,shard_rows,cores", [
    (128, (64, 32), 64, 2),     # 2 x 1 tile rows per shard, 2 + 1 tiles wide
    (96, (32, 96), 32, 3),      # one tile row per shard, 1 + 3 tiles wide
], ids=["2x3", "3x4"])  # fmt: skip
def test_concat_tiles_height_sharded(device, rows, widths, shard_rows, cores):
    g = torch.Generator().manual_seed(24)
    xs = [torch.randn(rows, w, generator=g).to(torch.bfloat16) for w in widths]
    ts = [ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=_rows_sharded(shard_rows, x.shape[1], cores)) for x in xs]  # fmt: skip
    out = ttnn.allocate_tensor_on_device(ttnn.Shape([rows, sum(widths)]), ttnn.bfloat16, ttnn.TILE_LAYOUT,
                                         device, _rows_sharded(shard_rows, sum(widths), cores))  # fmt: skip
    got = ttnn.to_torch(concat_s2s_tiles_program(ts, out))
    assert torch.equal(got.to(torch.bfloat16), torch.cat(xs, -1))
