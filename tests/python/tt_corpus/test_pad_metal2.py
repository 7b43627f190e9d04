"""Corpus: pad as ttnn 0.81.1's Metal 2.0 pad factories build their ProgramSpecs, kernels unchanged
from the reference tree, checked exactly against torch.nn.functional.pad.

- tile: PadTileMulticoreProgramFactory ("pad_tile_multicore"): output tiles split over the grid;
  each core's reader copies the input tiles that land in its range into dfb in0, its writer writes
  them, and a tile of the pad value (built once in the writer's scratchpad scratch::pad) everywhere
  else. Both kernels get the tile shapes and each core's starting position per dim as runtime
  varargs, which the host finds by walking the pages before the core.
- row major, single core: PadRmReaderWriterProgramFactory ("pad_rm_reader_writer_single_core"):
  core (0,0) builds each output row from the input row and copies of the op-owned tensor
  pad_value_const (32 pad values, one 64 B page in L1) read over the NoC.
- row major: PadRmReaderWriterMultiCoreDefaultProgramFactory ("pad_rm_reader_writer_multi_core_default",
  the _v2 kernels): output sticks split over the grid; the reader fills each stick from the pad
  value it wrote into its scratchpad scratch::pad and reads the input's part over it (through the
  second scratchpad scratch::pad_align when there is front padding in the row, or the padded row
  is not a multiple of DRAM's 64 B); front padding in every dim.
- tile, single core: PadTileCoreProgramFactory ("pad_tile_single_core"): the unary reader's tiles in
  order, the writer filling each dim's tail with the pad tile it builds in scratch::pad.
- row major, height-sharded: PadRmShardedHeightOnlyProgramFactory (padding in N, C and H: each output
  shard gathered over the NoC from the input shards, pad rows from dfb pad) and
  PadRmShardedWidthOnlyProgramFactory (padding in W only: each core pads its own rows in place, the
  pad row built in scratch::pad). The shards' dfbs borrow the tensors' L1 (CBs backed by them)."""
import numpy as np
import pytest
import torch

import ditmk.ttnn as ttnn
from layout_factories import TILE, TILE_BYTES, corerange_to_cores, dfb, metal2, single_core

pytestmark = pytest.mark.tt_corpus

PAD = "ttnn/cpp/ttnn/operations/data_movement/pad/device/kernels/dataflow/"
IN0 = 0


def bf16_bits(value):
    return int(torch.tensor([value], dtype=torch.bfloat16).view(torch.int16).item()) & 0xFFFF


def _advance(index, dims):
    """The kernels' advance_tensor_index: the last dim fastest, carrying into the ones before."""
    for d in reversed(range(len(dims))):
        if index[d] + 1 < dims[d]:
            index[d] += 1
            return
        index[d] = 0


def pad_tile_program(src, dst, pad_value):
    device = dst.device()
    grid = device.compute_with_storage_grid_size()
    num_pages = int(np.prod(dst.padded_shape)) // (TILE * TILE)
    num_cores, all_cores, group_1, group_2, per_core_1, per_core_2 = ttnn.split_work_to_cores(grid, num_pages)
    nd = len(dst.padded_shape)

    def page_shape(t):
        return list(t.padded_shape[:-2]) + [t.padded_shape[-2] // TILE, t.padded_shape[-1] // TILE]

    in_shape, out_shape = page_shape(src), page_shape(dst)
    in_id, out_id = [0] * nd, [0] * nd
    in_offset, out_offset = 0, 0
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for core in corerange_to_cores(all_cores, num_cores, row_wise=True):
        n = per_core_1 if group_1.contains(core) else per_core_2 if group_2.contains(core) else 0
        varargs = in_shape + out_shape + in_id + out_id
        reader_rt[core.x][core.y] = [n, in_offset] + varargs
        writer_rt[core.x][core.y] = [n, out_offset] + varargs
        for _ in range(n):
            if all(i >= o for i, o in zip(in_id, out_id)):  # inside the input's tiles
                _advance(in_id, in_shape)
                in_offset += 1
            _advance(out_id, out_shape)
            out_offset += 1
    assert out_offset == num_pages
    packed = bf16_bits(pad_value) | bf16_bits(pad_value) << 16
    kernels = [
        metal2(PAD + "reader_pad_tiled.cpp", all_cores, ttnn.ReaderConfigDescriptor(),
               cta=[("page_size", TILE_BYTES), ("num_dims", nd)], rta_names=["num_pages_to_write", "start_offset"],
               rt=reader_rt, dfbs={"in0": IN0}, tensors=[("src", src)]),
        metal2(PAD + "writer_pad_tiled.cpp", all_cores, ttnn.WriterConfigDescriptor(),
               cta=[("page_size", TILE_BYTES), ("num_dims", nd), ("pad_value", packed), ("element_size", 2)],
               rta_names=["num_pages_to_write", "start_offset"], rt=writer_rt, dfbs={"in0": IN0},
               tensors=[("dst", dst)], scratchpads={"pad": TILE_BYTES}),
    ]  # fmt: skip
    cbs = [dfb(IN0, src.dtype, TILE_BYTES, 2, all_cores)]
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("shape,padded,value", [
    ((1, 2, 64, 64), (1, 3, 96, 128), 0.0),
    ((2, 1, 32, 96), (3, 2, 64, 96), -1.5),
], ids=["channels-rows-cols", "batch-channels-rows"])  # fmt: skip
def test_pad_tiles(device, shape, padded, value):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(31)).to(torch.bfloat16)
    src = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(list(padded)), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    back = [p - s for s, p in zip(shape, padded)]
    want = torch.nn.functional.pad(x, (0, back[3], 0, back[2], 0, back[1], 0, back[0]), value=value)
    got = ttnn.to_torch(pad_tile_program(src, dst, value))
    assert torch.equal(got.to(torch.bfloat16), want)


def align(value, to):
    return -(-value // to) * to


def pad_rm_program(src, dst, front, pad_value):
    """The v2 factory for a 4-D bf16 row-major tensor, `front` = input_tensor_start (n, c, h, w)."""
    device = dst.device()
    N, C, H, W = src.shape
    Np, Cp, Hp, Wp = dst.padded_shape
    fn, fc, fh, fw = front
    stick, stick_padded, stick_front = W * 2, Wp * 2, fw * 2
    stick_aligned, stick_dram = align(stick_padded, 16), align(stick_padded, 64)
    unaligned = stick_aligned % 64 != 0
    pad_align = fw != 0 or unaligned
    per_barrier = max(-(-2048 // stick_aligned), 1)
    sticks = Hp * Cp * Np
    num_cores, all_cores, group_1, group_2, per_core_1, per_core_2 = ttnn.split_work_to_cores(
        device.compute_with_storage_grid_size(), sticks)
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    read, written, h, c, n_ = 0, 0, 0, 0, 0
    for core in corerange_to_cores(all_cores, num_cores, row_wise=True):
        n = per_core_1 if group_1.contains(core) else per_core_2 if group_2.contains(core) else 0
        reader_rt[core.x][core.y] = [n, per_barrier, read, fn, fc, fh, h, c, n_]
        writer_rt[core.x][core.y] = [n, per_barrier, written]
        written += n
        for _ in range(n):
            if fh <= h < H + fh and fc <= c < C + fc and fn <= n_ < N + fn:
                read += 1
            h += 1
            if h == Hp:
                h, c = 0, c + 1
                if c == Cp:
                    c, n_ = 0, n_ + 1
    assert written == sticks and read == N * C * H
    bits = bf16_bits(pad_value)
    scratchpads = {"pad": stick_dram}
    if pad_align:
        scratchpads["pad_align"] = stick_dram
    kernels = [
        metal2(PAD + "reader_pad_dims_rm_interleaved_v2.cpp", all_cores, ttnn.ReaderConfigDescriptor(),
               defines=[("PAD_ALIGN_DFB", "1")] if pad_align else [],
               cta=[("N", N + fn), ("H", H + fh), ("C", C + fc), ("stick_size_bytes", stick), ("N_padded", Np),
                    ("H_padded", Hp), ("C_padded", Cp), ("stick_size_padded", stick_padded),
                    ("stick_size_padded_front", stick_front), ("not_pad_by_zero", int(pad_value != 0)),
                    ("packed_pad_value", bits | bits << 16), ("stick_size_padded_aligned", stick_aligned),
                    ("unaligned", int(unaligned)), ("num_input_pages_in_row", 1)],
               rta_names=["num_sticks_per_core", "num_sticks_per_barrier", "start_page_id", "front_pad_n",
                          "front_pad_c", "front_pad_h", "start_dim_offset_h", "start_dim_offset_c",
                          "start_dim_offset_n"],
               rt=reader_rt, dfbs={"in0": IN0}, tensors=[("src", src)], scratchpads=scratchpads),
        metal2(PAD + "writer_pad_dims_rm_interleaved_v2.cpp", all_cores, ttnn.WriterConfigDescriptor(),
               cta=[("stick_size_bytes", stick_padded), ("stick_size_padded_aligned", stick_aligned),
                    ("num_output_pages_in_row", 1)],
               rta_names=["num_sticks_per_core", "num_sticks_per_barrier", "start_page_id"], rt=writer_rt,
               dfbs={"out0": IN0}, tensors=[("dst", dst)]),
    ]  # fmt: skip
    cbs = [dfb(IN0, src.dtype, stick_aligned, 16 * per_barrier, all_cores)]
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("shape,padded,front,value", [
    ((1, 2, 30, 32), (1, 3, 32, 64), (0, 0, 0, 0), 0.0),        # back padding only, 128 B rows: no pad_align
    ((1, 2, 5, 24), (2, 3, 8, 40), (1, 1, 2, 8), 2.25),         # front padding in every dim: pad_align
    ((2, 1, 7, 20), (2, 2, 9, 28), (0, 1, 0, 0), -3.0),         # 56 B rows, not DRAM-aligned: pad_align
], ids=["back", "front", "unaligned"])  # fmt: skip
def test_pad_rows(device, shape, padded, front, value):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(32)).to(torch.bfloat16)
    src = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(list(padded)), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    back = [p - s - f for s, p, f in zip(shape, padded, front)]
    want = torch.nn.functional.pad(x, (front[3], back[3], front[2], back[2], front[1], back[1], front[0], back[0]),
                                   value=value)  # fmt: skip
    got = ttnn.to_torch(pad_rm_program(src, dst, front, value))
    assert torch.equal(got.to(torch.bfloat16), want)


def pad_rm_single_core_program(src, dst, pad_const, pad_value):
    """The single-core factory: no front padding; the reader's and writer's args all runtime."""
    N, C, H, W = src.padded_shape
    Np, Cp, Hp, Wp = dst.padded_shape
    row, padded_row = W * 2, Wp * 2
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    reader_rt[0][0] = [N, C, Cp, row, padded_row, padded_row - row, bf16_bits(pad_value) << 16, 0, 0, Hp, H, Np]
    writer_rt[0][0] = [Cp, padded_row, 0, Hp, 0, Np]
    kernels = [
        metal2(PAD + "reader_pad_dims_rm_interleaved.cpp", core, ttnn.ReaderConfigDescriptor(),
               rta_names=["num_unpadded_W", "num_unpadded_Z", "num_total_Z", "unpadded_X_nbytes", "padded_X_nbytes",
                          "padded_X_diff_nbytes", "pad_value_packed", "start_src_stick_id", "start_src_stick_offset",
                          "num_local_Y", "num_local_unpadded_Y", "num_local_W"],
               rt=reader_rt, dfbs={"in0": IN0}, tensors=[("src", src), ("pad_value", pad_const)]),
        metal2(PAD + "writer_pad_dims_rm_interleaved.cpp", core, ttnn.WriterConfigDescriptor(),
               rta_names=["num_total_Z", "padded_X_nbytes", "start_dst_stick_id", "num_local_Y", "dst_stick_offset",
                          "num_local_W"], rt=writer_rt, dfbs={"in0": IN0}, tensors=[("dst", dst)]),
    ]  # fmt: skip
    cbs = [dfb(IN0, src.dtype, align(padded_row, 64), 16, core)]  # rows rounded up to the DRAM buffer's 64 B
    return ttnn.generic_op([src, pad_const, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("shape,padded,value", [
    ((1, 2, 30, 32), (2, 3, 32, 48), 1.5),    # rows grow by 32 B: filled value by value up to 32 B alignment
    ((1, 1, 8, 16), (1, 2, 9, 80), -0.75),    # rows grow by 128 B: 32 B value by value, then pad_value_const copies
], ids=["32B-tail", "128B-tail"])  # fmt: skip
def test_pad_rows_single_core(device, shape, padded, value):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(33)).to(torch.bfloat16)
    src = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    # the factory's op-owned tensor: 32 pad values, row-major, interleaved in L1
    pad_const = ttnn.from_torch(torch.full((1, 1, 1, 32), value, dtype=torch.bfloat16), dtype=ttnn.bfloat16,
                                layout=ttnn.ROW_MAJOR_LAYOUT, device=device, memory_config=ttnn.L1_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(list(padded)), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    back = [p - s for s, p in zip(shape, padded)]
    want = torch.nn.functional.pad(x, (0, back[3], 0, back[2], 0, back[1], 0, back[0]), value=value)
    got = ttnn.to_torch(pad_rm_single_core_program(src, dst, pad_const, value))
    assert torch.equal(got.to(torch.bfloat16), want)


UNARY_READER = ("ttnn/cpp/ttnn/operations/eltwise/unary/device/kernels/dataflow/"
                "reader_unary_interleaved_start_id_metal2.cpp")


def pad_tile_single_core_program(src, dst, pad_value):
    """PadTileCoreProgramFactory ("pad_tile_single_core"): core (0,0); the unary reader streams every
    input tile in order into dfb in0, the writer copies each into place and fills the rest of each
    row, face, channel and batch with a tile of the pad value it builds in scratch::pad. The writer's
    padded counts are in tiles of everything after the dim (a padded channel is Yt * Xt tiles)."""
    core = single_core()
    W, Z, Y, X = src.padded_shape
    Wp, Zp, Yp, Xp = dst.padded_shape
    Xt, Yt, Xtp, Ytp = X // TILE, Y // TILE, Xp // TILE, Yp // TILE
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    reader_rt[0][0] = [W * Z * Yt * Xt, 0]
    packed = bf16_bits(pad_value) | bf16_bits(pad_value) << 16
    writer_rt[0][0] = [W, (Wp - W) * Zp * Ytp * Xtp, Z, (Zp - Z) * Ytp * Xtp, Yt, (Ytp - Yt) * Xtp, Xt, Xtp - Xt,
                       packed]
    kernels = [
        metal2(UNARY_READER, core, ttnn.ReaderConfigDescriptor(), rta_names=["num_pages", "start_id"], rt=reader_rt,
               dfbs={"in": IN0}, tensors=[("src", src)]),
        metal2(PAD + "writer_unary_pad_dims_interleaved.cpp", core, ttnn.WriterConfigDescriptor(),
               rta_names=["num_unpadded_W", "num_padded_Wt", "num_unpadded_Z", "num_padded_Zt", "num_unpadded_Yt",
                          "num_padded_Yt", "num_unpadded_Xt", "num_padded_Xt", "pad_value"],
               rt=writer_rt, dfbs={"out0": IN0}, tensors=[("dst", dst)], scratchpads={"pad": TILE_BYTES}),
    ]  # fmt: skip
    cbs = [dfb(IN0, src.dtype, TILE_BYTES, 2, core)]
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("shape,padded,value", [
    ((1, 2, 64, 32), (2, 3, 96, 96), 0.5),     # padding after every dim
    ((2, 1, 32, 64), (2, 1, 32, 128), -2.0),   # columns only
], ids=["every-dim", "columns"])  # fmt: skip
def test_pad_tiles_single_core(device, shape, padded, value):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(34)).to(torch.bfloat16)
    src = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(list(padded)), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                         ttnn.DRAM_MEMORY_CONFIG)  # fmt: skip
    back = [p - s for s, p in zip(shape, padded)]
    want = torch.nn.functional.pad(x, (0, back[3], 0, back[2], 0, back[1], 0, back[0]), value=value)
    got = ttnn.to_torch(pad_tile_single_core_program(src, dst, value))
    assert torch.equal(got.to(torch.bfloat16), want)


IN_SHARD, PAD_DFB, OUT_SHARD = 0, 1, 16


def _row_sharded(shard_rows, width, num_cores):
    """L1 HEIGHT_SHARDED over the first `num_cores` cores of row 0, shards of `shard_rows` rows."""
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(num_cores - 1, 0))])
    spec = ttnn.ShardSpec(grid, [shard_rows, width], ttnn.ShardOrientation.ROW_MAJOR)
    return ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, spec)


def _borrowed(index, tensor, entry_size, entries, cores):
    """A DataflowBuffer borrowed from a sharded tensor (borrowed_from): a CB over its shard."""
    fmt = ttnn.CBFormatDescriptor(buffer_index=index, data_format=tensor.dtype, page_size=entry_size)
    return ttnn.CBDescriptor(total_size=entries * entry_size, core_ranges=cores, format_descriptors=[fmt],
                             buffer=tensor)  # fmt: skip


def _find_max_divisor(value, start):
    """tt-metal's find_max_divisor: the largest divisor of value from `start` down, 5 and 7 skipped."""
    for d in range(start, 0, -1):
        if d in (5, 7):
            continue
        if value % d == 0:
            return d
    return 1


def _chunks(values):
    """group_contiguous_and_repeated_values over uint32 words: a run where each value is the one before
    or one more (wrapping, as the factory's unsigned arithmetic does)."""
    out = [[values[0]]]
    for prev, v in zip(values, values[1:]):
        if v == (prev + 1) & 0xFFFFFFFF or v == prev:
            out[-1].append(v)
        else:
            out.append([v])
    return out


def pad_rm_sharded_height_program(src, dst, front, pad_value):
    """PadRmShardedHeightOnlyProgramFactory ("pad_rm_sharded_height_only") for row-major bf16 tensors
    height-sharded (row-major orientation) with padding in N, C and H only: on each output shard's core
    the reader gathers the shard's input rows from the input shards' cores over the NoC, chunk by chunk
    (its plan in runtime varargs, zero-filled to the longest), leaving gaps for pad rows, and the
    writer fills the gaps from dfb pad, one row of the pad value (zeros through async_write_zeros when
    the value is 0)."""
    device = dst.device()
    N, C, H, W = src.shape
    Np, Cp, Hp, Wp = dst.shape
    fn, fc, fh, _ = front
    assert W == Wp
    stick = W * 2
    in_spec, out_spec = src.memory_config().shard_spec, dst.memory_config().shard_spec
    rows_in, rows_out = in_spec.shape[0], out_spec.shape[0]
    in_box, out_box = in_spec.grid.bounding_box(), out_spec.grid.bounding_box()
    in_nx, in_ny = in_box.end.x - in_box.start.x + 1, in_box.end.y - in_box.start.y + 1
    out_nx = out_box.end.x - out_box.start.x + 1
    out_cores = out_spec.grid
    num_out = out_spec.grid.num_cores()
    bits = bf16_bits(pad_value)
    zero_size = _find_max_divisor(stick, 512)
    per_core = []
    h = c = n = 0
    read = 0
    for i in range(num_out):
        writer = [rows_out, read, fn, fc, fh, h, c, n]
        ids = []
        for _ in range(rows_out):
            if fh <= h < H + fh and fc <= c < C + fc and fn <= n < N + fn:
                ids.append(read)
                read += 1
            elif h < fh or c < fc or n < fn:
                ids.append(0xFFFFFFFE)  # front padding (-2)
            else:
                ids.append(0xFFFFFFFF)  # back padding (-1)
            h += 1
            if h == Hp:
                h, c = 0, c + 1
                if c == Cp:
                    c, n = 0, n + 1
        first = device.worker_core_from_logical_core(in_box.start)
        prev = (first.x, first.y)
        by_core = {}
        for sid in ids:
            if sid >= 0xFFFFFFFE:
                by_core.setdefault(prev, []).append(sid)
                continue
            shard, in_shard = divmod(sid, rows_in)
            outer, inner = divmod(shard, in_nx)  # row-major orientation
            x, y = in_box.start.x + inner, in_box.start.y + outer
            if x < in_box.start.x + in_nx and y < in_box.start.y + in_ny:
                phys = device.worker_core_from_logical_core(ttnn.CoreCoord(x, y))
                prev = (phys.y, phys.x)  # the factory keys row-major cores by (y, x)
                by_core.setdefault(prev, []).append(in_shard)
        keys = sorted(by_core)
        varargs = [v for y, x in keys for v in (x, y)]
        chunks = [_chunks(by_core[k]) for k in keys]
        varargs += [len(ch) for ch in chunks]
        varargs += [v for ch in chunks for run in ch for v in (run[0], len(run))]
        per_core.append((len(keys), varargs, writer))
    assert read == N * C * H
    longest = max(len(v) for _, v, _ in per_core)
    reader_rt, writer_rt = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for i, (num_read, varargs, writer) in enumerate(per_core):
        core = ttnn.CoreCoord(out_box.start.x + i % out_nx, out_box.start.y + i // out_nx)
        reader_rt[core.x][core.y] = [num_read] + varargs + [0] * (longest - len(varargs))
        writer_rt[core.x][core.y] = writer
    kernels = [
        metal2(PAD + "reader_pad_dims_rm_sharded.cpp", out_cores, ttnn.ReaderConfigDescriptor(),
               cta=[("stick_size_bytes", stick), ("num_sticks_padded", rows_out)], rta_names=["num_cores_read"],
               rt=reader_rt, dfbs={"in_shard": IN_SHARD, "out_shard": OUT_SHARD}),
        metal2(PAD + "writer_pad_dims_rm_sharded.cpp", out_cores, ttnn.WriterConfigDescriptor(),
               cta=[("N", N + fn), ("H", H + fh), ("C", C + fc), ("stick_size_bytes", stick), ("N_padded", Np),
                    ("H_padded", Hp), ("C_padded", Cp), ("num_zero_pad_sticks_read", stick // zero_size),
                    ("zero_pad_stick_size", zero_size), ("not_pad_by_zero", int(pad_value != 0)),
                    ("packed_pad_value", bits | bits << 16), ("row_major_min_bytes", 16),
                    ("num_sticks_padded_read", stick // 16)],
               rta_names=["num_sticks_per_core", "start_id", "front_pad_n", "front_pad_c", "front_pad_h",
                          "start_dim_offset_h", "start_dim_offset_c", "start_dim_offset_n"],
               rt=writer_rt, dfbs={"out_shard": OUT_SHARD, "pad": PAD_DFB}),
    ]  # fmt: skip
    cbs = [_borrowed(IN_SHARD, src, stick, min(rows_in, N * C * H), out_cores),
           _borrowed(OUT_SHARD, dst, stick, rows_out, out_cores),
           dfb(PAD_DFB, src.dtype, stick, 1, out_cores)]  # fmt: skip
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("shape,padded,front,value,cores", [
    # front and back padding in N, C and H: 4 output shards of 48 rows gathered from 4 input shards of 12
    ((1, 2, 24, 64), (2, 3, 32, 64), (1, 0, 4, 0), 1.25, (4, 4)),
    # back padding in C and H, by zero: 4 output shards of 24 rows from 4 input shards of 10
    ((1, 2, 20, 32), (1, 3, 32, 32), (0, 0, 0, 0), 0.0, (4, 4)),
], ids=["front-back", "zero"])  # fmt: skip
def test_pad_rows_height_sharded(device, shape, padded, front, value, cores):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(35)).to(torch.bfloat16)
    rows_in, rows_out = int(np.prod(shape[:3])), int(np.prod(padded[:3]))
    src = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=_row_sharded(rows_in // cores[0], shape[3], cores[0]))  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(list(padded)), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         _row_sharded(rows_out // cores[1], padded[3], cores[1]))  # fmt: skip
    back = [p - s - f for s, p, f in zip(shape, padded, front)]
    want = torch.nn.functional.pad(x, (0, 0, front[2], back[2], front[1], back[1], front[0], back[0]), value=value)
    got = ttnn.to_torch(pad_rm_sharded_height_program(src, dst, front, value))
    assert torch.equal(got.to(torch.bfloat16), want)


def pad_rm_sharded_width_program(src, dst, front_w, pad_value):
    """PadRmShardedWidthOnlyProgramFactory ("pad_rm_sharded_width_only"): input and output sharded
    alike by height; on each core the writer fills every output row of the shard with the pad value
    (a row built in scratch::pad, copied over the NoC), pushing them one by one, and the reader copies
    each input row into its row after the front padding. No runtime args."""
    W, Wp = src.shape[-1], dst.shape[-1]
    rows_in = src.memory_config().shard_spec.shape[0]
    rows_out = dst.memory_config().shard_spec.shape[0]
    cores = dst.memory_config().shard_spec.grid
    stick, padded_stick = W * 2, Wp * 2
    kernels = [
        metal2(PAD + "reader_pad_dims_rm_sharded_stickwise.cpp", cores, ttnn.ReaderConfigDescriptor(),
               cta=[("unpadded_stick_bytes", stick), ("unpadded_shard_height", rows_in),
                    ("W_front_pad_bytes", front_w * 2), ("unpadded_stick_step", align(stick, 16)),
                    ("padded_stick_step", align(padded_stick, 16))],
               dfbs={"in_shard": IN_SHARD, "out_shard": OUT_SHARD}),
        metal2(PAD + "writer_pad_dims_rm_sharded_stickwise.cpp", cores, ttnn.WriterConfigDescriptor(),
               cta=[("padded_stick_bytes", padded_stick), ("padded_shard_height", rows_out),
                    ("padding_value_as_u32", bf16_bits(pad_value)), ("padding_value_num_bytes", 2)],
               dfbs={"out_shard": OUT_SHARD}, scratchpads={"pad": padded_stick}),
    ]  # fmt: skip
    sticks = int(np.prod(src.shape[:-1]))
    cbs = [_borrowed(IN_SHARD, src, stick, min(rows_in, sticks), cores),
           _borrowed(OUT_SHARD, dst, padded_stick, rows_out, cores)]  # fmt: skip
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


@pytest.mark.parametrize("shape,width,front_w,value,cores", [
    ((1, 2, 32, 32), 48, 8, -1.5, 4),    # 64 B rows into 96 B rows, 8 values in front, 16 shard rows
    ((2, 1, 24, 16), 64, 0, 3.0, 3),     # 32 B rows into 128 B rows, back padding only
], ids=["front", "back"])  # fmt: skip
def test_pad_rows_width_sharded(device, shape, width, front_w, value, cores):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(36)).to(torch.bfloat16)
    rows = int(np.prod(shape[:3]))
    padded = list(shape[:3]) + [width]
    src = ttnn.from_torch(x, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT, device=device,
                          memory_config=_row_sharded(rows // cores, shape[3], cores))  # fmt: skip
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(padded), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device,
                                         _row_sharded(rows // cores, width, cores))  # fmt: skip
    want = torch.nn.functional.pad(x, (front_w, width - shape[3] - front_w), value=value)
    got = ttnn.to_torch(pad_rm_sharded_width_program(src, dst, front_w, value))
    assert torch.equal(got.to(torch.bfloat16), want)
